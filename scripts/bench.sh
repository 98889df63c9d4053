#!/usr/bin/env bash
# Runs every benchmark and rewrites BENCHMARKS.md. Called by `make bench` after a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/bench.py
