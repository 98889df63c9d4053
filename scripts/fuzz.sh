#!/bin/sh
# libFuzzer targets for the parsers that read what a crash, a user or another program left
# (docs/fuzzing.md): builds the core and the store with -sanitize=fuzzer,address into
# .build/fuzz, links each target in Tests/Fuzz/Targets against them, and runs each for
# FUZZ_SECONDS seconds (one at a time, niced), growing its corpus in .build/fuzz/corpus/<target>
# from the committed seeds in Tests/Fuzz/Seeds/<target>.
#   scripts/fuzz.sh [seconds] [target...]     seconds 0: build only
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-600}
[ $# -gt 0 ] && shift
TARGETS=${*:-$(cd Tests/Fuzz/Targets && ls *.swift | sed 's/\.swift$//')}
OUT=.build/fuzz
SWIFTC=${SWIFTC:-swiftc}
# -O: the speed of a release build with Swift's own traps (bounds, overflow) kept; -enable-testing
# lets the targets reach the internal functions they exercise (@testable import).
FLAGS="-sanitize=fuzzer,address -O -g -enable-testing -swift-version 6 -parse-as-library"
mkdir -p "$OUT/modules"
# The Swift toolchain carries libFuzzer (libclang_rt.fuzzer in its own clang resource folder).
resource=$(dirname "$(command -v "$SWIFTC")")/../lib/clang
if ! ls "$resource"/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
  echo "fuzz: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer under $resource); install the swift.org toolchain" >&2
  exit 1
fi

# Rebuilds module $1 from the sources under $2 when any of them, or a module it imports ($3), is
# newer than its library.
module() {
  name=$1; folder=$2; imports=$3; shift 3
  library="$OUT/modules/lib$name.a"
  if [ -f "$library" ] && [ -z "$(find "$folder" $imports -name '*.swift' -newer "$library")" ]; then return; fi
  echo "fuzz: compiling $name"
  nice -n 10 "$SWIFTC" $FLAGS -wmo -module-name "$name" -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
    -I "$OUT/modules" "$@" -static -emit-library -o "$library" $(find "$folder" -name '*.swift' | sort)
}
module LiveTranscriberCore Sources/LiveTranscriberCore ""
module LiveTranscriberStore Sources/LiveTranscriberStore Sources/LiveTranscriberCore -I Sources/CSQLite

for target in $TARGETS; do
  binary="$OUT/$target"
  if [ ! -f "$binary" ] || [ -n "$(find Tests/Fuzz/Targets/$target.swift Tests/Fuzz/Support "$OUT/modules" -newer "$binary")" ]; then
    echo "fuzz: linking $target"
    # The targets themselves are test code: Swift 5 mode lets a target keep its fixture in a global.
    nice -n 10 "$SWIFTC" -sanitize=fuzzer,address -O -g -parse-as-library -swift-version 5 -module-name "fuzz_$target" \
      -I "$OUT/modules" -I Sources/CSQLite -L "$OUT/modules" -lLiveTranscriberStore -lLiveTranscriberCore -lsqlite3 \
      Tests/Fuzz/Targets/$target.swift Tests/Fuzz/Support/*.swift -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
    [ -x "$binary" ] || { echo "fuzz: $target did not link" >&2; exit 1; }
  fi
done
[ "$SECONDS_EACH" = 0 ] && exit 0

# draft_recovery writes a small library per input: on tmpfs, its fsyncs cost nothing.
if [ -z "${TMPDIR:-}" ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
for target in $TARGETS; do
  corpus="$OUT/corpus/$target"; artifacts="$OUT/artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: running $target for $SECONDS_EACH s (corpus $corpus, crashes in $artifacts)"
  # Swift's own crash reporter would hold the output pipe open after libFuzzer exits: off.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 nice -n 10 "$OUT/$target" \
    -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "Tests/Fuzz/Seeds/$target" 2>&1 | tee "$OUT/$target.log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" || true
done
python3 scripts/bench.py fuzz-report >/dev/null && echo "fuzz: BENCHMARKS.md's fuzzing section rewritten from .build/fuzz/*.log"
