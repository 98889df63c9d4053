#!/usr/bin/env bash
# Joins the five librivox recordings from pocketsphinx-testdata (real read speech, 16 kHz mono)
# into one WAV file, with 0.8 s of silence after each so every sentence is its own utterance.
# REPEATS > 1 plays the set that many times, for benchmarks that need minutes of speech.
set -euo pipefail
out=${1:?usage: make-demo-audio.sh OUT.wav [REPEATS]}
repeats=${2:-1}
dir=/usr/share/pocketsphinx/test/data/librivox
[ -s "$out" ] && exit 0
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sox -n -r 16000 -c 1 -b 16 "$work/gap.wav" trim 0 0.8
inputs=()
for ((i = 0; i < repeats; i++)); do
  while read -r id; do inputs+=("$dir/$id.wav" "$work/gap.wav"); done < "$dir/fileids"
done
sox "${inputs[@]}" "$work/out.wav"
mv "$work/out.wav" "$out"
