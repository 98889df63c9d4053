#!/usr/bin/env bash
# Proves that scripts/ios-check.sh catches what it exists for, on scratch copies of Apple/:
#
#   1. a type error (an Int passed where the widget's MetricBlock takes a String);
#   2. a data race (a non-Sendable value sent into a Task and then used again), which only the
#      compiler's SIL passes (region-based isolation) find: `-typecheck` passes it, as this
#      script also shows.
#
# Each must make the check exit 1 with the compiler's error at the file and line of the fault.
# With lld-16, a third fault: linking the app without the store's object must fail on our own
# missing symbols (the link's stand-ins are for SDK symbols only).
# Only the widget module is compiled (the core and store modules of the last check are reused).
#
#   scripts/ios-check-selftest.sh /path/to/iPhoneOS26.2.sdk
#
# Exits 0 when both faults are caught, 1 when one is not, 64 on bad usage.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: scripts/ios-check-selftest.sh IPHONEOS_SDK_DIR" >&2; exit 64; }
sdk=$1
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$root/.build/ios-check/selftest
failed=0

# Copies Apple/ into $scratch/Apple afresh.
fresh_copy() {
  rm -rf "$scratch/Apple"
  mkdir -p "$scratch"
  cp -R "$root/Apple" "$scratch/Apple"
}

# Runs the check on the scratch copy; passes when it exits 1 and its output has a line with
# PLACE ("Widget/File.swift:LINE:COLUMN: error: ") followed by MESSAGE (a part of the compiler's
# wording, which may differ a little between Swift 6.2 and 6.3).
expect_caught() {
  local what=$1 place=$2 message=$3 status=0
  IOS_CHECK_APPLE_DIR=$scratch/Apple IOS_CHECK_MODULES=LiveTranscriberWidget \
    "$root/scripts/ios-check.sh" "$sdk" > "$scratch/output.txt" 2>&1 || status=$?
  local found; found=$(grep -F -- "$place" "$scratch/output.txt" | grep -F -- "$message" | head -n 1 || true)
  if [ $status -eq 1 ] && [ -n "$found" ]; then
    echo "ios-check-selftest: caught $what (exit $status): ${found#"$scratch/"}"
  else
    echo "ios-check-selftest: NOT caught: $what (exit $status; expected '$place' and '$message'); the check's output:" >&2
    cat "$scratch/output.txt" >&2
    failed=1
  fi
}

# 1. A type error.
fresh_copy
file=$scratch/Apple/Widget/LockScreenView.swift
line=$(grep -n 'MetricBlock(title: "Language", value: model.language)' "$file" | cut -d: -f1)
[ -n "$line" ] || { echo "ios-check-selftest: LockScreenView.swift changed; update the type-error fault" >&2; exit 1; }
sed -i "${line}s/value: model.language)/value: model.language.count)/" "$file"
column=$(sed -n "${line}p" "$file" | awk '{ print index($0, "count)") }')
expect_caught "a type error" "Widget/LockScreenView.swift:$line:$column: error: " \
  "cannot convert value of type 'Int' to expected argument type 'String'"

# 2. A data race: `counter` is sent into the task, then used again by the caller.
fresh_copy
cat > "$scratch/Apple/Widget/SelfTestRace.swift" <<'SWIFT'
final class SelfTestCounter {
    var count = 0
}

func selfTestRace() {
    let counter = SelfTestCounter()
    Task { counter.count += 1 }
    counter.count += 1
}
SWIFT
expect_caught "a data race" "Widget/SelfTestRace.swift:7:5: error: " "risks causing data races"

# The same race passes type-checking alone: why the check compiles.
IOS_CHECK_APPLE_DIR=$scratch/Apple IOS_CHECK_MODULES=LiveTranscriberWidget IOS_CHECK_TYPECHECK_ONLY=1 \
  "$root/scripts/ios-check.sh" "$sdk" > "$scratch/typecheck.txt" 2>&1 \
  && echo "ios-check-selftest: (the race passes -typecheck alone, as expected: only compiling finds it)" \
  || echo "ios-check-selftest: note: -typecheck also reported the race (this compiler checks regions earlier)"

# 3. A link with one of our objects missing (the store's): the app's references to it must fail
#    the link, never get a stand-in. Needs the check's objects and lld-16.
if command -v ld64.lld-16 >/dev/null && [ -f "$root/.build/ios-check/obj/LiveTranscriber.o" ]; then
  status=0
  python3 "$root/scripts/ios-link.py" "$sdk" "$root/.build/ios-check" --omit LiveTranscriberStore \
    > "$scratch/link.txt" 2>&1 || status=$?
  found=$(grep -F "ios-link: LiveTranscriber: undefined symbol" "$scratch/link.txt" | grep -F "LiveTranscriberStore" | head -n 1 || true)
  if [ $status -eq 1 ] && [ -n "$found" ]; then
    echo "ios-check-selftest: caught a missing object of ours at link (exit $status, $(grep -c 'undefined symbol' "$scratch/link.txt") symbols): ${found:0:160}…"
  else
    echo "ios-check-selftest: NOT caught: the link without the store's object (exit $status); its output:" >&2
    cat "$scratch/link.txt" >&2
    failed=1
  fi
fi

rm -rf "$scratch/Apple"
[ $failed -eq 0 ] && echo "ios-check-selftest: passed"
exit $failed
