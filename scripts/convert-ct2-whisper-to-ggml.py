#!/usr/bin/env python3
"""Converts a Whisper model in CTranslate2 form (model.bin, config.json,
vocabulary.txt) into the ggml file whisper.cpp loads.

Usage: convert-ct2-whisper-to-ggml.py MODEL_DIR OUTPUT.bin

Needs only numpy. The ggml file holds, in order: the magic 'ggml', eleven
int32 hyperparameters, the 80 x 201 mel filterbank (float32), the byte-level
vocabulary without special tokens, then every tensor under whisper.cpp's
PyTorch-style name. CTranslate2 stores the query, key and value projections of
self-attention fused into one matrix (and key and value for cross-attention);
they are split back here. Whisper's key projection has no bias: CTranslate2
stores zeros there, which are dropped.
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

CT2_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}


def read_ct2(path):
    """Returns {variable name: numpy array} from a CTranslate2 model.bin (format versions 5 and 6)."""
    data = Path(path).read_bytes()
    position = 0

    def take(fmt):
        nonlocal position
        values = struct.unpack_from("<" + fmt, data, position)
        position += struct.calcsize("<" + fmt)
        return values

    def string():
        nonlocal position
        (length,) = take("H")
        text = data[position:position + length].rstrip(b"\0").decode("utf-8")
        position += length
        return text

    (version,) = take("I")
    if version < 5:
        sys.exit(f"unsupported CTranslate2 model format version {version}")
    spec = string()
    (revision,) = take("I")
    (count,) = take("I")
    variables = {}
    for _ in range(count):
        name = string()
        (rank,) = take("B")
        shape = take("I" * rank)
        (dtype,) = take("B")
        (size,) = take("I")
        if dtype not in CT2_DTYPES:
            sys.exit(f"{name}: unsupported CTranslate2 data type {dtype} (quantized models are not supported)")
        array = np.frombuffer(data, dtype=CT2_DTYPES[dtype], count=size // np.dtype(CT2_DTYPES[dtype]).itemsize,
                              offset=position).reshape(shape)
        position += size
        variables[name] = array
    (aliases,) = take("I")
    for _ in range(aliases):
        alias = string()
        target = string()
        variables[alias] = variables[target]
    return spec, revision, variables


def hz_to_mel(frequencies):
    """Slaney's mel scale: linear below 1 kHz, logarithmic above."""
    frequencies = np.asanyarray(frequencies, dtype=np.float64)
    f_sp = 200.0 / 3
    mels = frequencies / f_sp
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    above = frequencies >= min_log_hz
    mels = np.where(above, min_log_mel + np.log(np.maximum(frequencies, 1e-10) / min_log_hz) / logstep, mels)
    return mels


def mel_to_hz(mels):
    mels = np.asanyarray(mels, dtype=np.float64)
    f_sp = 200.0 / 3
    frequencies = f_sp * mels
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    above = mels >= min_log_mel
    return np.where(above, min_log_hz * np.exp(logstep * (mels - min_log_mel)), frequencies)


def mel_filters(n_mels, sample_rate=16000, n_fft=400):
    """Triangular, area-normalised (Slaney) mel filterbank, n_mels x (n_fft / 2 + 1), as Whisper was trained with."""
    fft_frequencies = np.linspace(0, sample_rate / 2, 1 + n_fft // 2)
    mel_points = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2))
    widths = np.diff(mel_points)
    ramps = mel_points[:, None] - fft_frequencies[None, :]
    weights = np.zeros((n_mels, 1 + n_fft // 2))
    for i in range(n_mels):
        lower = -ramps[i] / widths[i]
        upper = ramps[i + 2] / widths[i + 1]
        weights[i] = np.maximum(0, np.minimum(lower, upper))
    weights *= (2.0 / (mel_points[2:n_mels + 2] - mel_points[:n_mels]))[:, None]
    return weights.astype(np.float32)


def byte_decoder():
    """Inverse of GPT-2's byte-to-printable-character table used by byte-level BPE vocabularies."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    codes = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codes.append(256 + extra)
            extra += 1
    return {chr(code): byte for byte, code in zip(printable, codes)}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    model_dir, output = Path(sys.argv[1]), Path(sys.argv[2])
    spec, _, v = read_ct2(model_dir / "model.bin")
    if spec != "WhisperSpec":
        sys.exit(f"{model_dir}/model.bin is a {spec}, not a Whisper model")
    config = json.loads((model_dir / "config.json").read_text())
    vocabulary = (model_dir / "vocabulary.txt").read_text(encoding="utf-8").split("\n")
    if vocabulary and vocabulary[-1] == "":
        vocabulary.pop()

    n_audio_layer = sum(1 for name in v if name.startswith("encoder/layer_") and name.endswith("/ffn/linear_0/weight"))
    n_text_layer = sum(1 for name in v if name.startswith("decoder/layer_") and name.endswith("/ffn/linear_0/weight"))
    n_audio_state = v["encoder/conv2/weight"].shape[0]
    n_text_state = v["decoder/embeddings/weight"].shape[1]
    n_mels = v["encoder/conv1/weight"].shape[1]
    n_vocab = v["decoder/embeddings/weight"].shape[0]
    n_audio_ctx = v["encoder/position_encodings/encodings"].shape[0]
    n_text_ctx = v["decoder/position_encodings/encodings"].shape[0]
    n_audio_head = int(np.asarray(v.get("encoder/num_heads", [n_audio_state // 64])).reshape(-1)[0])
    n_text_head = int(np.asarray(v.get("decoder/num_heads", [n_text_state // 64])).reshape(-1)[0])

    # Ordinary tokens only: whisper.cpp derives the special ones (end of text, languages, tasks, timestamps).
    special = vocabulary.index("<|endoftext|>")
    decoder = byte_decoder()
    tokens = [bytes(decoder[c] for c in token) for token in vocabulary[:special]]

    tensors = []

    def add(name, array):
        tensors.append((name, np.asarray(array)))

    def attention(prefix, ct2, fused_qkv):
        weight = v[f"{ct2}/linear_0/weight"]
        bias = v[f"{ct2}/linear_0/bias"]
        if fused_qkv:
            q, k, val = np.split(weight, 3)
            qb, _, vb = np.split(bias, 3)
            out = 1
        else:
            q, qb = weight, bias
            k, val = np.split(v[f"{ct2}/linear_1/weight"], 2)
            _, vb = np.split(v[f"{ct2}/linear_1/bias"], 2)
            out = 2
        add(f"{prefix}.query.weight", q)
        add(f"{prefix}.query.bias", qb)
        add(f"{prefix}.key.weight", k)
        add(f"{prefix}.value.weight", val)
        add(f"{prefix}.value.bias", vb)
        add(f"{prefix}.out.weight", v[f"{ct2}/linear_{out}/weight"])
        add(f"{prefix}.out.bias", v[f"{ct2}/linear_{out}/bias"])

    def layer_norm(prefix, ct2):
        add(f"{prefix}.weight", v[f"{ct2}/gamma"])
        add(f"{prefix}.bias", v[f"{ct2}/beta"])

    def mlp(prefix, ct2):
        add(f"{prefix}.mlp.0.weight", v[f"{ct2}/linear_0/weight"])
        add(f"{prefix}.mlp.0.bias", v[f"{ct2}/linear_0/bias"])
        add(f"{prefix}.mlp.2.weight", v[f"{ct2}/linear_1/weight"])
        add(f"{prefix}.mlp.2.bias", v[f"{ct2}/linear_1/bias"])

    add("encoder.positional_embedding", v["encoder/position_encodings/encodings"])
    add("encoder.conv1.weight", v["encoder/conv1/weight"])
    add("encoder.conv1.bias", v["encoder/conv1/bias"])
    add("encoder.conv2.weight", v["encoder/conv2/weight"])
    add("encoder.conv2.bias", v["encoder/conv2/bias"])
    for i in range(n_audio_layer):
        base, ct2 = f"encoder.blocks.{i}", f"encoder/layer_{i}"
        attention(f"{base}.attn", f"{ct2}/self_attention", True)
        layer_norm(f"{base}.attn_ln", f"{ct2}/self_attention/layer_norm")
        mlp(base, f"{ct2}/ffn")
        layer_norm(f"{base}.mlp_ln", f"{ct2}/ffn/layer_norm")
    layer_norm("encoder.ln_post", "encoder/layer_norm")

    add("decoder.positional_embedding", v["decoder/position_encodings/encodings"])
    add("decoder.token_embedding.weight", v["decoder/embeddings/weight"])
    for i in range(n_text_layer):
        base, ct2 = f"decoder.blocks.{i}", f"decoder/layer_{i}"
        attention(f"{base}.attn", f"{ct2}/self_attention", True)
        layer_norm(f"{base}.attn_ln", f"{ct2}/self_attention/layer_norm")
        attention(f"{base}.cross_attn", f"{ct2}/attention", False)
        layer_norm(f"{base}.cross_attn_ln", f"{ct2}/attention/layer_norm")
        mlp(base, f"{ct2}/ffn")
        layer_norm(f"{base}.mlp_ln", f"{ct2}/ffn/layer_norm")
    layer_norm("decoder.ln", "decoder/layer_norm")

    filters = mel_filters(n_mels)
    partial = output.with_suffix(output.suffix + ".partial")
    with partial.open("wb") as out:
        out.write(struct.pack("<i", 0x67676D6C))
        out.write(struct.pack("<11i", n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
                              n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, 1))
        out.write(struct.pack("<2i", *filters.shape))
        out.write(filters.tobytes())
        out.write(struct.pack("<i", len(tokens)))
        for token in tokens:
            out.write(struct.pack("<i", len(token)))
            out.write(token)
        for name, array in tensors:
            if name in ("encoder.conv1.bias", "encoder.conv2.bias"):
                array = array.reshape(array.shape[0], 1)
            # Matrices in half precision; vectors, conv biases and position tables in single precision.
            keep_f32 = array.ndim < 2 or name.endswith("conv1.bias") or name.endswith("conv2.bias") \
                or name.endswith("positional_embedding")
            array = np.ascontiguousarray(array, dtype=np.float32 if keep_f32 else np.float16)
            encoded = name.encode("utf-8")
            out.write(struct.pack("<3i", array.ndim, len(encoded), 0 if keep_f32 else 1))
            out.write(struct.pack(f"<{array.ndim}i", *reversed(array.shape)))
            out.write(encoded)
            out.write(array.tobytes())
    partial.replace(output)
    print(f"wrote {output}: {n_audio_layer}+{n_text_layer} layers, width {n_text_state}, "
          f"{n_vocab} tokens, {len(tensors)} tensors, alignment heads {config.get('alignment_heads', [])[:0]}")


if __name__ == "__main__":
    main()
