#!/usr/bin/env python3
"""The iPhone app's bundle, from Apple/project.yml: Info.plists, entitlements, layout, and their check.

project.yml (the XcodeGen spec a Mac builds from) is the one source of truth: every value written
here is read from it (each target's `info.properties`, `entitlements.properties`,
`PRODUCT_BUNDLE_IDENTIFIER`, `TARGETED_DEVICE_FAMILY`, the deployment target). What Xcode adds
to every Info.plist by itself (executable name, package type, version numbers XcodeGen defaults
to 1.0 and 1, supported platform) is added the same way here.

  scripts/ios-bundle.py check
      Writes both Info.plists and both entitlements files into a temporary folder, reads them
      back with plistlib and validates them; then proves the validation can fail: each of a list
      of deliberate faults (the widget's bundle id outside the app's, another app group, a
      string where a boolean belongs, a missing usage description, another extension point)
      must be refused. Needs no SDK; `make test` runs it.
  scripts/ios-bundle.py assemble OUT --app-binary FILE --widget-binary FILE
      Assembles OUT/LiveTranscriber.app (its Info.plist, executable and
      PlugIns/LiveTranscriberWidget.appex with its own Info.plist and executable) and writes the
      entitlements each target is signed with beside it (OUT/LiveTranscriber.entitlements,
      OUT/LiveTranscriberWidget.entitlements; a Mac's codesign embeds them). Then validates it.
  scripts/ios-bundle.py validate OUT
      Validates an assembled OUT folder (as `assemble` leaves it).

Exits 0 when valid, 1 with one line per problem on stderr, 64 on bad usage.
"""
import os
import plistlib
import re
import shutil
import struct
import sys
import tempfile

import yaml  # Debian's python3-yaml (scripts/install-deps.sh)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT = os.path.join(ROOT, "Apple", "project.yml")
SHARED_SETTINGS = os.path.join(ROOT, "Apple", "Shared", "SharedSettings.swift")
APP, WIDGET = "LiveTranscriber", "LiveTranscriberWidget"
BUNDLE_ID = re.compile(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
# Mach-O 64-bit, little-endian, CPU_TYPE_ARM64 (what Xcode's Release build for iPhone makes).
MACHO_ARM64 = (0xFEEDFACF, 0x0100000C)


def load_project(path=PROJECT):
    with open(path, encoding="utf-8") as file:
        return yaml.safe_load(file)


def info_plist(project, target):
    """The Info.plist Xcode would write for `target`: project.yml's properties plus Xcode's own."""
    spec = project["targets"][target]
    settings = spec.get("settings", {}).get("base", {})
    is_app = spec["type"] == "application"
    plist = {
        "CFBundleDevelopmentRegion": "en",
        "CFBundleExecutable": target,
        "CFBundleIdentifier": settings["PRODUCT_BUNDLE_IDENTIFIER"],
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleName": target,
        "CFBundlePackageType": "APPL" if is_app else "XPC!",
        "CFBundleShortVersionString": "1.0",
        "CFBundleVersion": "1",
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
        "MinimumOSVersion": str(project["options"]["deploymentTarget"]["iOS"]),
        "UIDeviceFamily": [int(family) for family in str(settings.get("TARGETED_DEVICE_FAMILY", "1")).split(",")],
    }
    if is_app:
        plist["LSRequiresIPhoneOS"] = True
    plist.update(spec["info"]["properties"])
    return plist


def entitlements(project, target):
    return dict(project["targets"][target]["entitlements"]["properties"])


def expect(problems, where, value, kind, check=None, message=None):
    """Records a problem unless `value` is a `kind` that passes `check`."""
    if value is None:
        problems.append(f"{where}: missing")
    elif not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        problems.append(f"{where}: is {type(value).__name__}, should be {kind.__name__}")
    elif check is not None and not check(value):
        problems.append(f"{where}: {message} (is {value!r})")


def string_list(value):
    return isinstance(value, list) and value and all(isinstance(item, str) and item for item in value)


def validate(app_info, widget_info, app_entitlements, widget_entitlements, app_group_in_code=None):
    """Every problem with the two Info.plists and entitlements, one line each; none when valid."""
    problems = []
    a, w = "LiveTranscriber Info.plist", "LiveTranscriberWidget Info.plist"
    app_id = app_info.get("CFBundleIdentifier")
    expect(problems, f"{a} CFBundleIdentifier", app_id, str, BUNDLE_ID.match, "not a reverse-DNS bundle identifier")
    expect(problems, f"{a} CFBundleExecutable", app_info.get("CFBundleExecutable"), str, bool, "empty")
    expect(problems, f"{a} CFBundlePackageType", app_info.get("CFBundlePackageType"), str, lambda v: v == "APPL", "should be APPL")
    for key in ("NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription"):
        expect(problems, f"{a} {key}", app_info.get(key), str, lambda v: v.strip(), "empty")
    expect(problems, f"{a} NSSupportsLiveActivities", app_info.get("NSSupportsLiveActivities"), bool, lambda v: v, "should be true")
    expect(problems, f"{a} UIBackgroundModes", app_info.get("UIBackgroundModes"), list,
           lambda v: "audio" in v, "should include audio (recording goes on with the screen locked)")
    expect(problems, f"{a} CFBundleURLTypes", app_info.get("CFBundleURLTypes"), list,
           lambda v: any(isinstance(t, dict) and "livetranscriber" in (t.get("CFBundleURLSchemes") or []) for t in v),
           "no URL type with the livetranscriber scheme")
    for info, name in ((app_info, a), (widget_info, w)):
        expect(problems, f"{name} MinimumOSVersion", info.get("MinimumOSVersion"), str,
               lambda v: re.match(r"^\d+\.\d+$", v), "not a version")
        expect(problems, f"{name} UIDeviceFamily", info.get("UIDeviceFamily"), list,
               lambda v: v and all(isinstance(f, int) and not isinstance(f, bool) for f in v), "should be integers")
        expect(problems, f"{name} CFBundleDisplayName", info.get("CFBundleDisplayName"), str, bool, "empty")
    widget_id = widget_info.get("CFBundleIdentifier")
    expect(problems, f"{w} CFBundleIdentifier", widget_id, str,
           lambda v: isinstance(app_id, str) and v.startswith(app_id + ".") and BUNDLE_ID.match(v),
           f"should extend the app's ({app_id}.…)")
    expect(problems, f"{w} CFBundlePackageType", widget_info.get("CFBundlePackageType"), str, lambda v: v == "XPC!", "should be XPC!")
    extension = widget_info.get("NSExtension")
    expect(problems, f"{w} NSExtension", extension, dict)
    if isinstance(extension, dict):
        expect(problems, f"{w} NSExtension.NSExtensionPointIdentifier", extension.get("NSExtensionPointIdentifier"), str,
               lambda v: v == "com.apple.widgetkit-extension", "should be com.apple.widgetkit-extension")
    for key in ("CFBundleShortVersionString", "CFBundleVersion"):
        if app_info.get(key) != widget_info.get(key):
            problems.append(f"{w} {key}: should equal the app's ({app_info.get(key)!r}), is {widget_info.get(key)!r}")

    groups_key = "com.apple.security.application-groups"
    app_groups, widget_groups = app_entitlements.get(groups_key), widget_entitlements.get(groups_key)
    for groups, name in ((app_groups, "LiveTranscriber entitlements"), (widget_groups, "LiveTranscriberWidget entitlements")):
        expect(problems, f"{name} {groups_key}", groups, list,
               lambda v: string_list(v) and all(g.startswith("group.") for g in v), "should be group.… identifiers")
    if string_list(app_groups) and string_list(widget_groups) and not set(app_groups) & set(widget_groups):
        problems.append(f"entitlements: the app ({app_groups}) and the widget ({widget_groups}) share no app group")
    if app_group_in_code is not None and string_list(widget_groups) and app_group_in_code not in widget_groups:
        problems.append(f"SharedSettings.appGroup ({app_group_in_code!r}) is not in the widget's app groups {widget_groups}")
    containers = app_entitlements.get("com.apple.developer.icloud-container-identifiers")
    expect(problems, "LiveTranscriber entitlements com.apple.developer.icloud-container-identifiers", containers, list,
           lambda v: string_list(v) and all(c.startswith("iCloud.") for c in v), "should be iCloud.… identifiers")
    ubiquity = app_entitlements.get("com.apple.developer.ubiquity-container-identifiers")
    expect(problems, "LiveTranscriber entitlements com.apple.developer.ubiquity-container-identifiers", ubiquity, list,
           lambda v: v == containers, "should name the iCloud containers")
    expect(problems, "LiveTranscriber entitlements com.apple.developer.icloud-services",
           app_entitlements.get("com.apple.developer.icloud-services"), list, lambda v: "CloudDocuments" in v,
           "should include CloudDocuments (iCloud Drive)")
    ubiquitous = app_info.get("NSUbiquitousContainers")
    expect(problems, f"{a} NSUbiquitousContainers", ubiquitous, dict,
           lambda v: isinstance(containers, list) and set(v) <= set(containers), "names a container the entitlements lack")
    return problems


def app_group_in_code():
    with open(SHARED_SETTINGS, encoding="utf-8") as file:
        found = re.search(r'static let appGroup = "([^"]+)"', file.read())
    return found.group(1) if found else None


def write_plist(path, value):
    with open(path, "wb") as file:
        plistlib.dump(value, file, sort_keys=True)


def read_plist(path):
    with open(path, "rb") as file:
        return plistlib.load(file)


def check_macho(path, problems):
    try:
        with open(path, "rb") as file:
            header = file.read(8)
    except OSError as error:
        problems.append(f"{path}: {error.strerror}")
        return
    if len(header) < 8 or struct.unpack("<II", header) != MACHO_ARM64:
        problems.append(f"{path}: not an arm64 Mach-O executable")


def bundle_paths(out):
    app = os.path.join(out, f"{APP}.app")
    appex = os.path.join(app, "PlugIns", f"{WIDGET}.appex")
    return app, appex


def validate_folder(out, binaries=True):
    app, appex = bundle_paths(out)
    problems = []
    try:
        app_info = read_plist(os.path.join(app, "Info.plist"))
        widget_info = read_plist(os.path.join(appex, "Info.plist"))
        app_entitlements = read_plist(os.path.join(out, f"{APP}.entitlements"))
        widget_entitlements = read_plist(os.path.join(out, f"{WIDGET}.entitlements"))
    except (OSError, plistlib.InvalidFileException) as error:
        return [f"{out}: cannot read the bundle's property lists: {error}"]
    problems += validate(app_info, widget_info, app_entitlements, widget_entitlements, app_group_in_code())
    if binaries:
        for folder, info in ((app, app_info), (appex, widget_info)):
            check_macho(os.path.join(folder, str(info.get("CFBundleExecutable"))), problems)
    return problems


def write_bundle(out, project, app_binary=None, widget_binary=None):
    app, appex = bundle_paths(out)
    os.makedirs(appex, exist_ok=True)
    write_plist(os.path.join(app, "Info.plist"), info_plist(project, APP))
    write_plist(os.path.join(appex, "Info.plist"), info_plist(project, WIDGET))
    write_plist(os.path.join(out, f"{APP}.entitlements"), entitlements(project, APP))
    write_plist(os.path.join(out, f"{WIDGET}.entitlements"), entitlements(project, WIDGET))
    for binary, folder, name in ((app_binary, app, APP), (widget_binary, appex, WIDGET)):
        if binary:
            shutil.copyfile(binary, os.path.join(folder, name))
            os.chmod(os.path.join(folder, name), 0o755)


# Deliberate faults the validation must refuse: (what is broken, how, a word its message holds).
FAULTS = [
    ("the widget's bundle id outside the app's",
     lambda a, w, ae, we: w.update(CFBundleIdentifier="com.example.widget"), "should extend the app's"),
    ("the widget in another app group",
     lambda a, w, ae, we: we.update({"com.apple.security.application-groups": ["group.example.other"]}), "share no app group"),
    ("NSSupportsLiveActivities as a string",
     lambda a, w, ae, we: a.update(NSSupportsLiveActivities="YES"), "NSSupportsLiveActivities: is str, should be bool"),
    ("no microphone usage description",
     lambda a, w, ae, we: a.pop("NSMicrophoneUsageDescription"), "NSMicrophoneUsageDescription: missing"),
    ("another extension point",
     lambda a, w, ae, we: w["NSExtension"].update(NSExtensionPointIdentifier="com.apple.share-services"), "widgetkit-extension"),
    ("no audio background mode",
     lambda a, w, ae, we: a.update(UIBackgroundModes=["fetch"]), "should include audio"),
    ("no livetranscriber URL scheme",
     lambda a, w, ae, we: a.update(CFBundleURLTypes=[{"CFBundleURLSchemes": ["other"]}]), "livetranscriber scheme"),
]


def check():
    project = load_project()
    with tempfile.TemporaryDirectory() as out:
        write_bundle(out, project)
        problems = validate_folder(out, binaries=False)
        if problems:
            return problems
        app, appex = bundle_paths(out)
        app_info = read_plist(os.path.join(app, "Info.plist"))
        print(f"ios-bundle: Info.plists and entitlements from Apple/project.yml valid "
              f"({app_info['CFBundleIdentifier']}, widget {read_plist(os.path.join(appex, 'Info.plist'))['CFBundleIdentifier']}, "
              f"group {entitlements(project, WIDGET)['com.apple.security.application-groups'][0]})")
    for name, fault, words in FAULTS:
        values = [info_plist(project, APP), info_plist(project, WIDGET), entitlements(project, APP), entitlements(project, WIDGET)]
        fault(*values)
        found = validate(*values, app_group_in_code())
        if not any(words in problem for problem in found):
            problems.append(f"ios-bundle: the check did not refuse {name} (found {found})")
        else:
            print(f"ios-bundle: refused {name}: {next(p for p in found if words in p)}")
    return problems


def main(argv):
    if argv[1:] == ["check"]:
        problems = check()
    elif len(argv) == 3 and argv[1] == "validate":
        problems = validate_folder(argv[2])
        if not problems:
            print(f"ios-bundle: {os.path.join(argv[2], APP + '.app')} valid")
    elif len(argv) == 7 and argv[1] == "assemble" and argv[3] == "--app-binary" and argv[5] == "--widget-binary":
        out = argv[2]
        shutil.rmtree(os.path.join(out, f"{APP}.app"), ignore_errors=True)
        write_bundle(out, load_project(), argv[4], argv[6])
        problems = validate_folder(out)
        if not problems:
            print(f"ios-bundle: {os.path.join(out, APP + '.app')} assembled and valid")
    else:
        print("usage: scripts/ios-bundle.py check | validate OUT | assemble OUT --app-binary FILE --widget-binary FILE",
              file=sys.stderr)
        return 64
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
