#!/usr/bin/env bash
# Compiles the iOS app and its widget extension against an iPhoneOS SDK folder, on Linux, the way
# Xcode's Release build compiles them: each module whole (-wmo), optimized (-O), in the Swift 6
# language mode (complete strict concurrency), to arm64 object code for iOS 26. Then links both
# executables (scripts/ios-link.py, with Debian's lld-16 when installed) and assembles and
# validates LiveTranscriber.app in .build/ios-check/bundle (scripts/ios-bundle.py).
#
#   scripts/ios-check.sh /path/to/iPhoneOS26.2.sdk
#
# Four modules, in the order Xcode builds them:
#   1. LiveTranscriberCore (Sources/LiveTranscriberCore): the core must compile for iOS unchanged;
#   2. LiveTranscriberStore (Sources/LiveTranscriberStore), the library store, over the core and
#      the SDK's SQLite3 and Darwin (its Platform.swift takes that side);
#   3. LiveTranscriberWidget (Apple/Widget + Apple/Shared), importing the core;
#   4. LiveTranscriber, the app (Apple/App + Apple/Shared), importing the core and the store.
# Compiling runs the diagnostics type-checking never reaches (region-based isolation, ownership).
# Objects go to .build/ios-check/obj, the core's and store's interfaces to .build/ios-check/modules.
#
# The SDK is Apple's and is never part of this repository: the user supplies it, as with any
# cross-build. Exits 0 when all four compile (and, with lld-16, link into a valid bundle), 1 on
# any error, 64 on bad usage.
#
# For scripts/ios-check-selftest.sh: IOS_CHECK_APPLE_DIR checks another copy of Apple/ (its
# objects go to .build/ios-check/scratch and are never reused), IOS_CHECK_MODULES names the Apple
# modules to compile (default: both), IOS_CHECK_TYPECHECK_ONLY=1 only type-checks them.
set -euo pipefail

usage() { echo "usage: scripts/ios-check.sh IPHONEOS_SDK_DIR" >&2; exit 64; }
[ $# -eq 1 ] || usage
sdk=$1
[ -d "$sdk" ] || { echo "ios-check: '$sdk' is not a folder" >&2; exit 64; }
[ -f "$sdk/SDKSettings.json" ] || { echo "ios-check: '$sdk' has no SDKSettings.json; is it an SDK folder?" >&2; exit 64; }
sdk=$(cd "$sdk" && pwd)

root=$(cd "$(dirname "$0")/.." && pwd)
apple=${IOS_CHECK_APPLE_DIR:-$root/Apple}     # a scratch copy can be checked instead (see docs/ios.md)
modules=${IOS_CHECK_MODULES:-LiveTranscriberWidget LiveTranscriber}
core=$root/Sources/LiveTranscriberCore
store=$root/Sources/LiveTranscriberStore
work=$root/.build/ios-check
target=${IOS_CHECK_TARGET:-arm64-apple-ios26.0}
optimize=(-O)
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
    echo "ios-check: $name: errors (see above)" >&2; exit 1
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
# Compiles module NAME from FILES into $work/obj/NAME.o (whole module, Swift 6, optimized as a
# Release build is) and, for a library, its interface into $work/modules, unless it is still
# current: the same SDK, target, flags and file list, and no file (nor the object of a module it
# imports, listed before --) changed since that object's compile started (NAME.started is touched
# before the compiler reads the files, so a file edited during a compile is compiled again).
# A scratch copy's modules always compile.
compile() {
  local name=$1 kind=$2; shift 2
  local objects=$work/obj
  [ "$kind" = library ] || [ -z "${IOS_CHECK_APPLE_DIR:-}" ] || objects=$work/scratch
  local object=$objects/$name.o stamp_file=$objects/$name.stamp started=$objects/$name.started
  local -a deps=()
  while [ "$1" != -- ]; do deps+=("$work/obj/$1.o"); shift; done; shift
  local stamp; stamp=$(printf '%s\n' "$sdk" "$target" "${optimize[@]}" "$@" | cksum)
  local fresh=1 file
  [ -f "$object" ] && [ -f "$started" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ] && [ "$objects" = "$work/obj" ] || fresh=0
  if [ $fresh -eq 1 ]; then
    for file in "$@" "${deps[@]}"; do [ "$file" -nt "$started" ] && { fresh=0; break; }; done
  fi
  if [ $fresh -eq 1 ]; then
    echo "ios-check: $name: ok (unchanged since the last check)"; return
  fi
  rm -f "$object" "$stamp_file" "$started"
  : > "$started.new"  # before the compiler reads a file
  local -a emit=()
  [ "$kind" = library ] && emit=(-emit-module -emit-module-path "$work/modules/$name.swiftmodule")
  if [ "${IOS_CHECK_TYPECHECK_ONLY:-}" = 1 ] && [ "$kind" != library ]; then
    run "$name" -typecheck -parse-as-library "$@"; return
  fi
  run "$name" -wmo -parse-as-library "${optimize[@]}" -c -o "$object" "${emit[@]}" "$@"
  mv "$started.new" "$started"
  echo "$stamp" > "$stamp_file"
}
mkdir -p "$work/obj" "$work/scratch"
compile LiveTranscriberCore library -- "${core_files[@]}"
compile LiveTranscriberStore library LiveTranscriberCore -- "${store_files[@]}"
case " $modules " in *" LiveTranscriberWidget "*)
  compile LiveTranscriberWidget executable LiveTranscriberCore -- "${widget_files[@]}";; esac
case " $modules " in *" LiveTranscriber "*)
  compile LiveTranscriber executable LiveTranscriberCore LiveTranscriberStore -- "${app_files[@]}";; esac
echo "ios-check: compiled"
[ -z "${IOS_CHECK_APPLE_DIR:-}" ] && [ "$modules" = "LiveTranscriberWidget LiveTranscriber" ] || exit 0

# Linked with Debian's lld-16 (scripts/ios-link.py says how, and prints every stand-in symbol),
# then bundled with the Info.plists and entitlements from Apple/project.yml and validated.
link_status=0
python3 "$root/scripts/ios-link.py" "$sdk" "$work" || link_status=$?
if [ $link_status -eq 2 ]; then
  echo "ios-check: not linked or bundled: install Debian's lld-16 (apt-get install lld-16) for that step"
  exit 0
elif [ $link_status -ne 0 ]; then
  echo "ios-check: not linked (see above)" >&2; exit 1
fi
python3 "$root/scripts/ios-bundle.py" assemble "$work/bundle" \
  --app-binary "$work/link/LiveTranscriber" --widget-binary "$work/link/LiveTranscriberWidget" \
  || { echo "ios-check: the bundle is not valid (see above)" >&2; exit 1; }
echo "ios-check: passed"
