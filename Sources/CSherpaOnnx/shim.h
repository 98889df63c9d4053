#ifndef LT_CSHERPAONNX_SHIM_H
#define LT_CSHERPAONNX_SHIM_H

// sherpa-onnx 2.0.1's C API and ONNX Runtime, from the sherpa-onnx-core wheel on PyPI, installed
// under .deps/sherpa-onnx by scripts/install-speakers.sh. Only its offline speaker diarization
// (pyannote segmentation, a speaker embedding model, clustering) is used.
#include <sherpa-onnx/c-api/c-api.h>

#endif
