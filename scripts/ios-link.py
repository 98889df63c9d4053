#!/usr/bin/env python3
"""Links the iPhone app and its widget extension as arm64 Mach-O executables, on Linux.

  scripts/ios-link.py SDK WORK

WORK is scripts/ios-check.sh's folder (.build/ios-check): the objects in WORK/obj are linked with
Debian's lld-16 (`ld64.lld-16`; the Swift toolchain's own ld64.lld refuses the iOS platform)
against the SDK's .tbd stubs into WORK/link/LiveTranscriber and WORK/link/LiveTranscriberWidget.

The SDK copy docs/ios.md names is not complete: some .tbd stubs lack symbols that its own Swift
interfaces declare (they are older stubs, tapi-tbd-v3 still naming armv7), SwiftUICore.tbd is
absent (SwiftUI re-exports it), and Linux has no libclang_rt.ios.a. So each executable is linked
twice: first against the SDK as it is, which lists every undefined symbol; then against a view of
the SDK in WORK/link/sdk where each missing symbol is added, as a stand-in, to the stub of the
library that declares it, by this rule and no other:

  - a Swift symbol of an SDK module's entity belongs to that module: the mangled name's first
    identifier (`$s11ActivityKit…`; after a standard type's substitution for an extension or
    conformance, `$sSS10AppIntentsE…`), or its second for an associated type's descriptor
    (`$s12ContentState11ActivityKit…`); and so to the library that ships the module's interface: the framework whose Modules folder holds it
    (Speech.framework for SpeechAnalyzer, not the old libswiftSpeech overlay), else
    /usr/lib/swift/libswiftX.dylib. SwiftUI's symbols go to SwiftUI, which re-exports
    SwiftUICore, so the binding holds whichever of the two defines them;
  - a Swift runtime symbol (`_swift_…`, `__swift…`) belongs to /usr/lib/swift/libswiftCore.dylib;
  - `___isPlatformVersionAtLeast` (the `#available` check clang-rt provides) is compiled here
    from a ten-line C version of compiler-rt's, which asks dyld (`_availability_version_check`);
  - anything else fails the link, and so does every missing symbol that names one of our own
    modules (LiveTranscriber, LiveTranscriberCore, LiveTranscriberStore, LiveTranscriberWidget):
    ours must resolve among our own objects.

A stand-in only makes the linker record "this symbol, from that library": the executable binds
to the real library on a device. Every stand-in is printed (and written to
WORK/link/stand-ins.txt, demangled); none is ever committed. Exits 0 when both executables link,
1 when one does not (with why), 2 when ld64.lld-16 is missing.

`--omit MODULE` links without that module's object, into WORK/selftest-link: the self-test's
proof that a missing symbol of ours fails the link instead of getting a stand-in.
"""
import os
import re
import shutil
import subprocess
import sys

APP, WIDGET = "LiveTranscriber", "LiveTranscriberWidget"
LINKER = "ld64.lld-16"
PLATFORM = ["-platform_version", "ios", "26.0", "26.2"]
FRAMEWORKS = "System/Library/Frameworks"
OUR_MODULES = re.compile(r"\d+LiveTranscriber(Core|Store|Widget)?(?![A-Za-z])")
SWIFT_LIBS = "usr/lib/swift"
VERSION_CHECK_C = r"""
/* clang-rt's __isPlatformVersionAtLeast (compiler-rt/lib/builtins/os_version_check.c), which
   Linux's toolchain has no iOS build of: asks dyld whether the OS is at least the version. */
#include <stdint.h>
typedef struct { uint32_t platform; uint32_t version; } dyld_build_version_t;
extern _Bool _availability_version_check(uint32_t count, dyld_build_version_t versions[]);
int32_t __isPlatformVersionAtLeast(uint32_t platform, uint32_t major, uint32_t minor, uint32_t subminor) {
  dyld_build_version_t version = { platform, ((major & 0xffff) << 16) | ((minor & 0xff) << 8) | (subminor & 0xff) };
  return _availability_version_check(1, &version);
}
"""


def link(sdk, objects, output, extension):
    """Runs the linker; returns (exit status, its messages)."""
    command = [LINKER, "-arch", "arm64", *PLATFORM, "-syslibroot", sdk, "-L", os.path.join(sdk, SWIFT_LIBS),
               "-lSystem", "-dead_strip", "--error-limit=0", "-o", output, *objects,
               "-rpath", "@executable_path/../../Frameworks" if extension else "@executable_path/Frameworks"]
    if extension:
        command.append("-application_extension")
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stderr


def owners(sdk):
    """Swift module name → the install name of the library that ships it: the framework whose
    Modules folder holds the module's interface, else /usr/lib/swift's libswiftX (Swift's own
    module is libswiftCore). The library that ships a module's interface defines its symbols."""
    found = {}
    for entry in os.listdir(os.path.join(sdk, SWIFT_LIBS)):
        if entry.endswith(".swiftmodule"):
            name = entry[: -len(".swiftmodule")]
            found[name] = f"/{SWIFT_LIBS}/libswift{'Core' if name == 'Swift' else name}.dylib"
    for entry in os.listdir(os.path.join(sdk, FRAMEWORKS)):
        name = entry[: -len(".framework")]
        if entry.endswith(".framework") and os.path.isdir(os.path.join(sdk, FRAMEWORKS, entry, "Modules", f"{name}.swiftmodule")):
            found[name] = f"/{FRAMEWORKS}/{entry}/{name}"
    return found


def owner_of(symbol, libraries):
    """The install name a missing symbol is taken from, or None when the rule names none."""
    if symbol.startswith("_$s"):
        if OUR_MODULES.search(symbol):
            return None  # ours must resolve among our own objects, never by a stand-in
        # The entity's module is the first identifier; an associated type's descriptor
        # ($s4Body7SwiftUI4ViewPTl) names the associated type first, then the module; an
        # extension of, or conformance by, a standard type ($sSS10AppIntentsE…, String in
        # AppIntents; $sxSg7SwiftUI4View…Mc, Optional: View in SwiftUI) names the type by
        # substitution letters, then the module.
        start = re.match(r"[A-Za-z]*", symbol[3:]).end()
        for name in identifiers(symbol[3 + start:], 2):
            if name in libraries:
                return libraries[name]
        return None
    if symbol.startswith("_swift_") or symbol.startswith("__swift"):
        return f"/{SWIFT_LIBS}/libswiftCore.dylib"
    return None


def identifiers(mangled, count):
    """The first `count` identifiers of a mangled name that starts with one (`4Body7SwiftUI…`)."""
    found, at = [], 0
    while len(found) < count:
        match = re.match(r"(\d+)", mangled[at:])
        if not match:
            break
        start = at + match.end()
        found.append(mangled[start:start + int(match.group(1))])
        at = start + int(match.group(1))
    return found


def stub_path(sdk_view, install_name):
    """Where the .tbd of `install_name` lives in an SDK folder."""
    return os.path.join(sdk_view, install_name.lstrip("/").removesuffix(".dylib") + ".tbd")


def quoted(symbols):
    return ", ".join("'" + symbol + "'" for symbol in sorted(symbols))


def add_exports(text, symbols):
    """The .tbd text with `symbols` exported for arm64 too (tapi-tbd v3 or v4)."""
    if text.startswith("--- !tapi-tbd-v3"):
        entry = f"  - archs:                [ arm64 ]\n    symbols:              [ {quoted(symbols)} ]\n"
    else:
        entry = f"  - targets:              [ arm64-ios ]\n    symbols:              [ {quoted(symbols)} ]\n"
    first_end = text.find("\n...")
    document = text if first_end < 0 else text[:first_end + 1]
    rest = "" if first_end < 0 else text[first_end + 1:]
    if re.search(r"^exports:\s*$", document, re.M):
        document = re.sub(r"^exports:\s*\n", lambda m: m.group(0) + entry, document, count=1, flags=re.M)
    else:
        document += "exports:\n" + entry
    return document + rest


def empty_stub(install_name):
    return (f"--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-ios ]\ninstall-name: '{install_name}'\n"
            "current-version: 1\ncompatibility-version: 1\n...\n")


def sdk_view(sdk, view, patches, missing_reexports):
    """A folder that is the SDK, with patched copies of the stubs that get stand-ins."""
    shutil.rmtree(view, ignore_errors=True)
    changed = {stub_path("", name).lstrip("/"): name for name in list(patches) + list(missing_reexports)}
    changed_dirs = set()
    for path in changed:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            changed_dirs.add("/".join(parts[:depth]))

    def mirror(relative):
        source, target = os.path.join(sdk, relative), os.path.join(view, relative)
        os.makedirs(target, exist_ok=True)
        for entry in os.listdir(source) if os.path.isdir(source) else []:
            child = os.path.join(relative, entry) if relative else entry
            if child in changed_dirs:
                mirror(child)
            elif child not in changed:
                os.symlink(os.path.join(sdk, child), os.path.join(view, child))

    mirror("")
    for path, name in changed.items():
        target = os.path.join(view, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        original = os.path.join(sdk, path)
        text = open(original, encoding="utf-8").read() if os.path.exists(original) else empty_stub(name)
        if name in patches:
            text = add_exports(text, patches[name])
        with open(target, "w", encoding="utf-8") as file:
            file.write(text)


def demangled(symbols):
    done = subprocess.run(["swift-demangle", "--simplified"], input="\n".join(symbols), capture_output=True, text=True)
    lines = done.stdout.splitlines()
    return lines if done.returncode == 0 and len(lines) == len(symbols) else list(symbols)


def main(argv):
    omit = None
    if len(argv) == 5 and argv[3] == "--omit":
        omit = argv[4]  # scripts/ios-check-selftest.sh: link without one of our objects
    elif len(argv) != 3:
        print("usage: scripts/ios-link.py SDK WORK [--omit MODULE]", file=sys.stderr)
        return 64
    sdk, work = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    if shutil.which(LINKER) is None:
        print(f"ios-link: not linked: {LINKER} is missing (Debian: apt-get install lld-16)", file=sys.stderr)
        return 2
    out = os.path.join(work, "link" if omit is None else "selftest-link")
    os.makedirs(out, exist_ok=True)
    obj = os.path.join(work, "obj")
    inputs = {
        APP: [os.path.join(obj, f"{name}.o") for name in (APP, "LiveTranscriberCore", "LiveTranscriberStore") if name != omit],
        WIDGET: [os.path.join(obj, f"{name}.o") for name in (WIDGET, "LiveTranscriberCore") if name != omit],
    }
    libraries = owners(sdk)
    patches, missing_reexports, needs_version_check, problems = {}, set(), False, []
    for name, objects in inputs.items():
        status, messages = link(sdk, objects, os.path.join(out, name), name == WIDGET)
        for symbol in sorted(set(re.findall(r"undefined symbol: (\S+)", messages))):
            if symbol == "___isPlatformVersionAtLeast":
                needs_version_check = True
            elif (owner := owner_of(symbol, libraries)) is not None:
                patches.setdefault(owner, set()).add(symbol)
            else:
                why = ("one of ours, missing from our objects" if OUR_MODULES.search(symbol)
                       else "which no SDK library is known to define")
                problems.append(f"ios-link: {name}: undefined symbol {symbol}, {why}")
        missing_reexports.update(re.findall(r"unable to locate re-export with install name (\S+)", messages))
        other = [line for line in messages.splitlines()
                 if "error:" in line and "undefined symbol" not in line and "re-export" not in line]
        problems += [f"ios-link: {name}: {line}" for line in other]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1

    view = os.path.join(out, "sdk")
    sdk_view(sdk, view, patches, missing_reexports)
    extra = []
    if needs_version_check:
        source, object_file = os.path.join(out, "version-check.c"), os.path.join(out, "version-check.o")
        with open(source, "w", encoding="utf-8") as file:
            file.write(VERSION_CHECK_C)
        subprocess.run(["clang", "-target", "arm64-apple-ios26.0", "-isysroot", sdk, "-O2", "-c", source, "-o", object_file],
                       check=True)
        extra.append(object_file)

    listing = []
    for library in sorted(patches):
        symbols = sorted(patches[library])
        listing.append(f"{library}: {len(symbols)} stand-in symbols")
        listing += [f"  {symbol}    {plain}" for symbol, plain in zip(symbols, demangled(symbols))]
    for library in sorted(missing_reexports):
        listing.append(f"{library}: absent from the SDK; an empty stub stands in so its re-exporter loads")
    if needs_version_check:
        listing.append("___isPlatformVersionAtLeast: compiled from version-check.c (clang-rt's rule, over dyld)")
    with open(os.path.join(out, "stand-ins.txt"), "w", encoding="utf-8") as file:
        file.write("\n".join(listing) + "\n")
    print("\n".join("ios-link: stand-in: " + line for line in listing))

    for name, objects in inputs.items():
        output = os.path.join(out, name)
        status, messages = link(view, objects + extra, output, name == WIDGET)
        if status != 0:
            print(messages, file=sys.stderr)
            print(f"ios-link: {name}: not linked (see above)", file=sys.stderr)
            return 1
        for line in messages.splitlines():
            if "warning:" in line:
                print(f"ios-link: {name}: {line.split('warning: ', 1)[1]}")
        headers = subprocess.run(["llvm-objdump", "--macho", "--private-headers", output], capture_output=True, text=True).stdout
        dylibs = len(re.findall(r"cmd LC_LOAD_(?:WEAK_)?DYLIB", headers))
        print(f"ios-link: {name}: linked, arm64 Mach-O executable for iOS 26.0, {os.path.getsize(output)} bytes, "
              f"{dylibs} libraries loaded ({output})")
    total = sum(len(symbols) for symbols in patches.values())
    print(f"ios-link: {total} stand-in symbols in {len(patches)} libraries (listed above and in {out}/stand-ins.txt)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
