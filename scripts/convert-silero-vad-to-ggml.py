#!/usr/bin/env python3
"""Converts the 16 kHz Silero VAD weights shipped as safetensors in the
silero-vad wheel (silero_vad/data/silero_vad_16k.safetensors) into the ggml
file whisper.cpp's whisper_vad_* functions load.

Usage: convert-silero-vad-to-ggml.py MODEL.safetensors VERSION OUTPUT.bin

Needs only numpy (safetensors is a JSON header followed by raw little-endian
arrays). The ggml file holds the magic 'ggml', the model type "silero-16k",
the version, the window (512 samples) and context (64 samples) sizes, the
shapes of the four convolution layers, the LSTM and the output layer, then the
tensors under the names whisper.cpp looks up. Convolution weights and the STFT
basis are stored in half precision, everything else in single precision.
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16}


def read_safetensors(path):
    data = Path(path).read_bytes()
    (header_size,) = struct.unpack_from("<Q", data, 0)
    header = json.loads(data[8:8 + header_size])
    body = 8 + header_size
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[body + start:body + end], dtype=DTYPES[info["dtype"]]).reshape(info["shape"])
    return tensors


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[5])
    source, version, output = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    t = read_safetensors(source)
    major, minor, patch = (int(part) for part in version.split("."))

    # (whisper.cpp name, array, half precision?) in the order whisper.cpp's loader expects them.
    tensors = []
    for i in range(4):
        tensors.append((f"_model.encoder.{i}.reparam_conv.weight", t[f"conv{i + 1}.weight"], True))
        tensors.append((f"_model.encoder.{i}.reparam_conv.bias", t[f"conv{i + 1}.bias"], False))
    tensors.append(("_model.decoder.rnn.weight_ih", t["lstm_cell.weight_ih"], False))
    tensors.append(("_model.decoder.rnn.weight_hh", t["lstm_cell.weight_hh"], False))
    tensors.append(("_model.decoder.rnn.bias_ih", t["lstm_cell.bias_ih"], False))
    tensors.append(("_model.decoder.rnn.bias_hh", t["lstm_cell.bias_hh"], False))
    tensors.append(("_model.decoder.decoder.2.weight", t["final_conv.weight"], True))
    tensors.append(("_model.decoder.decoder.2.bias", t["final_conv.bias"], False))
    tensors.append(("_model.stft.forward_basis_buffer", t["stft_conv.weight"], True))

    partial = output.with_suffix(output.suffix + ".partial")
    with partial.open("wb") as out:
        out.write(struct.pack("<i", 0x67676D6C))
        model_type = b"silero-16k"
        out.write(struct.pack("<i", len(model_type)))
        out.write(model_type)
        out.write(struct.pack("<3i", major, minor, patch))
        out.write(struct.pack("<2i", 512, 64))  # window and context, in samples at 16 kHz
        in_channels, out_channels = [129, 128, 64, 64], [128, 64, 64, 128]
        out.write(struct.pack("<i", 4))
        for i in range(4):
            out.write(struct.pack("<3i", in_channels[i], out_channels[i], 3))
        out.write(struct.pack("<2i", 128, 128))  # LSTM input and hidden size
        out.write(struct.pack("<2i", 128, 1))  # output convolution in and out channels
        for name, array, half in tensors:
            if name == "_model.stft.forward_basis_buffer":
                shape = list(array.shape)  # kept three-dimensional: (258, 1, 256)
            else:
                array = np.squeeze(array)
                shape = list(array.shape)
            array = np.ascontiguousarray(array, dtype=np.float16 if half else np.float32)
            encoded = name.encode("utf-8")
            out.write(struct.pack("<3i", len(shape), len(encoded), 1 if half else 0))
            out.write(struct.pack(f"<{len(shape)}i", *reversed(shape)))
            out.write(encoded)
            out.write(array.tobytes())
    partial.replace(output)
    print(f"wrote {output}: Silero VAD {version}, {len(tensors)} tensors")


if __name__ == "__main__":
    main()
