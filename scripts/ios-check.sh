#!/usr/bin/env bash
# Type-checks the iOS app and its widget extension against an iPhoneOS SDK folder, on Linux.
#
#   scripts/ios-check.sh /path/to/iPhoneOS26.2.sdk
#
# Four modules, in the order Xcode builds them, each with Swift 6 (strict concurrency):
#   1. LiveTranscriberCore (Sources/LiveTranscriberCore) emitted as an iOS module, which
#      type-checks every function body too: the core must type-check for iOS unchanged;
#   2. LiveTranscriberStore (Sources/LiveTranscriberStore), the library store, emitted the same
#      way over the core and the SDK's SQLite3 and Darwin (its Platform.swift takes that side);
#   3. LiveTranscriberWidget (Apple/Widget + Apple/Shared), importing the core;
#   4. LiveTranscriber, the app (Apple/App + Apple/Shared), importing the core and the store.
# Nothing is linked: linking, asset catalogs, entitlements and Info.plist need a Mac (docs/ios.md).
#
# The SDK is Apple's and is never part of this repository: the user supplies it, as with any
# cross-build. Exits 0 when all four type-check, 1 on any error, 64 on bad usage.
set -euo pipefail

usage() { echo "usage: scripts/ios-check.sh IPHONEOS_SDK_DIR" >&2; exit 64; }
[ $# -eq 1 ] || usage
sdk=$1
[ -d "$sdk" ] || { echo "ios-check: '$sdk' is not a folder" >&2; exit 64; }
[ -f "$sdk/SDKSettings.json" ] || { echo "ios-check: '$sdk' has no SDKSettings.json; is it an SDK folder?" >&2; exit 64; }
sdk=$(cd "$sdk" && pwd)

root=$(cd "$(dirname "$0")/.." && pwd)
apple=${IOS_CHECK_APPLE_DIR:-$root/Apple}     # a scratch copy can be checked instead (see docs/ios.md)
core=$root/Sources/LiveTranscriberCore
store=$root/Sources/LiveTranscriberStore
work=$root/.build/ios-check
target=${IOS_CHECK_TARGET:-arm64e-apple-ios26.0}
# The first run builds the SDK's module cache (about two minutes); later runs take seconds.
# A broken SDK module makes every importer retry it, so every run is bounded.
limit=${IOS_CHECK_TIMEOUT:-600}

swiftc=$(command -v swiftc) || { echo "ios-check: swiftc is not on PATH" >&2; exit 1; }
toolchain_lib=$(cd "$(dirname "$(readlink -f "$swiftc")")/../lib/swift" && pwd)

# A private resource folder: the toolchain's clang headers, macro plugins and std apinotes, and
# deliberately no `shims` (the 26.x SDK brings its own; two copies make SwiftShims vanish) and no
# Linux module maps (CoreFoundation, dispatch, os), which would shadow the SDK's.
resource=$work/resource
mkdir -p "$resource/apinotes" "$work/module-cache" "$work/modules"
ln -sfn "$toolchain_lib/clang" "$resource/clang"
ln -sfn "$toolchain_lib/host" "$resource/host"
ln -sfn "$toolchain_lib/apinotes/std.apinotes" "$resource/apinotes/std.apinotes"

for link in usr/include/libxml System/Library/Frameworks/AVFoundation.framework/Frameworks/AVFAudio.framework; do
  if [ ! -L "$sdk/$link" ]; then
    echo "ios-check: $sdk/$link should be a symbolic link (git checkouts lose it; see docs/ios.md)" >&2
    exit 1
  fi
done

common=(-target "$target" -sdk "$sdk" -resource-dir "$resource" -module-cache-path "$work/module-cache"
        -Xfrontend -enable-cross-import-overlays -swift-version 6 -I "$work/modules")

sources() { find "$@" -name '*.swift' -print | LC_ALL=C sort; }

run() {
  local name=$1; shift
  local started=$SECONDS status=0
  timeout "$limit" "$swiftc" "${common[@]}" -module-name "$name" "$@" || status=$?
  if [ $status -eq 124 ]; then
    echo "ios-check: $name: timed out after ${limit}s" >&2; exit 1
  elif [ $status -ne 0 ]; then
    echo "ios-check: $name: type errors (see above)" >&2; exit 1
  fi
  echo "ios-check: $name: ok ($((SECONDS - started)) s)"
}

mapfile -t core_files < <(sources "$core")
mapfile -t store_files < <(sources "$store")
mapfile -t widget_files < <(sources "$apple/Widget" "$apple/Shared")
mapfile -t app_files < <(sources "$apple/App" "$apple/Shared")

sdk_name=$(grep -o '"CanonicalName":"[^"]*"' "$sdk/SDKSettings.json" | head -n 1 | cut -d'"' -f4)
sdk_build=$(grep -A1 '<key>ProductBuildVersion</key>' "$sdk/System/Library/CoreServices/SystemVersion.plist" 2>/dev/null \
  | sed -n 's/.*<string>\(.*\)<\/string>.*/\1/p' || true)
echo "ios-check: SDK $sdk_name${sdk_build:+ (build $sdk_build)} at $sdk, target $target"
# Emits module NAME from FILES into $work/modules, unless it is still current: the same SDK,
# target and file list, and no file (nor a module it imports, listed in DEPENDS) newer than it.
emit() {
  local name=$1 folder=$2; shift 2
  local module=$work/modules/$name.swiftmodule stamp_file=$work/modules/$name.stamp
  local stamp; stamp=$(printf '%s\n' "$sdk" "$target" "$@" | cksum)
  if [ -f "$module" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ] \
     && [ -z "$(find "$folder" -name '*.swift' -newer "$module" -print -quit)" ] \
     && { [ "$name" = LiveTranscriberCore ] || [ ! "$work/modules/LiveTranscriberCore.swiftmodule" -nt "$module" ]; }; then
    echo "ios-check: $name: ok (unchanged since the last check)"
  else
    rm -f "$module"
    run "$name" -emit-module -emit-module-path "$module" -parse-as-library "$@"
    echo "$stamp" > "$stamp_file"
  fi
}
emit LiveTranscriberCore "$core" "${core_files[@]}"
emit LiveTranscriberStore "$store" "${store_files[@]}"
run LiveTranscriberWidget -typecheck -parse-as-library "${widget_files[@]}"
run LiveTranscriber -typecheck -parse-as-library "${app_files[@]}"
echo "ios-check: passed"
