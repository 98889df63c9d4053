#!/usr/bin/env bash
# Joins the five librivox recordings from pocketsphinx-testdata into one WAV file
# (real speech, 16 kHz mono, about 25 seconds) with a short pause between them.
set -euo pipefail
out=${1:?usage: make-demo-audio.sh OUT.wav [REPEATS]}
repeats=${2:-1}
dir=/usr/share/pocketsphinx/test/data/librivox
[ -f "$out" ] && [ "$repeats" = 1 ] && exit 0
mkdir -p "$(dirname "$out")"
inputs=()
for ((i = 0; i < repeats; i++)); do
  while read -r id; do inputs+=("$dir/$id.wav"); done < "$dir/fileids"
done
tmp="$out.tmp.wav"
sox "${inputs[@]}" "$tmp" pad 0 0.6 2>/dev/null || sox "${inputs[@]}" "$tmp"
mv "$tmp" "$out"
