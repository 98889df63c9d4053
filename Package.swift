// swift-tools-version:6.2
// 6.2: the command line uses `SendableMetatype`. Platforms: `Mutex` (Synchronization) needs
// macOS 15 / iOS 18; the iOS app itself targets iOS 26 (Apple/project.yml).
import PackageDescription

// whisper.cpp lives in .deps/whisper (scripts/install-whisper.sh, run by `make test` / `make run`):
// its pkg-config file is found through PKG_CONFIG_PATH (the Makefile sets it), and the run-time
// search path is written into every binary here, since SwiftPM drops -rpath from pkg-config files.
let whisperLibrary = Context.packageDirectory + "/.deps/whisper/lib"
// sherpa-onnx (speaker diarization) the same way, from scripts/install-speakers.sh.
let sherpaLibrary = Context.packageDirectory + "/.deps/sherpa-onnx/lib"

let package = Package(
    name: "LiveTranscriber",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // `livetranscriber` runs the library commands with only the core, the store and SQLite,
        // and hands every other command to `livetranscriber-full` (docs/architecture.md, "Two programs").
        .executable(name: "livetranscriber", targets: ["livetranscriber"]),
        .executable(name: "livetranscriber-full", targets: ["livetranscriber-full"]),
        .library(name: "LiveTranscriberCore", targets: ["LiveTranscriberCore"]),
        .library(name: "LiveTranscriberStore", targets: ["LiveTranscriberStore"]),
    ],
    targets: [
        // C libraries from Debian, one module each (see each module's shim.h).
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx",
                       providers: [.apt(["libpocketsphinx-dev", "pocketsphinx-en-us"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        // Ogg Opus and Ogg Vorbis to the end of a chained file (libsndfile reads only the first link).
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // whisper.cpp built from its source on PyPI (not Debian), installed under .deps/ by the set-up.
        .systemLibrary(name: "CWhisper", pkgConfig: "whisper"),
        // C++ around whisper.cpp's model loaders: catches the exceptions a damaged model throws and
        // notices a truncated one (plain C header; docs/models.md, "Damaged and truncated models").
        .target(name: "CWhisperLoader", dependencies: ["CWhisper"]),
        // sherpa-onnx's C API (offline speaker diarization) with ONNX Runtime, from PyPI, under .deps/.
        .systemLibrary(name: "CSherpaOnnx", pkgConfig: "sherpa-onnx"),

        // Every decision, Foundation only, no #if.
        .target(name: "LiveTranscriberCore"),
        // What only the command line draws from the core's presentations: the terminal card and
        // text, the SVG previews of the Live Activity and its JSON Lines feed (the app never
        // compiles them).
        .target(name: "LiveTranscriberTerminal", dependencies: ["LiveTranscriberCore"]),

        // The library store (folders as the truth, an SQLite FTS5 index), shared by Linux and iOS:
        // SQLite is the CSQLite system library on Linux and the SDK's SQLite3 on Apple platforms
        // (Sources/LiveTranscriberStore/Platform.swift is its only platform split).
        .target(
            name: "LiveTranscriberStore",
            dependencies: ["LiveTranscriberCore", .target(name: "CSQLite", condition: .when(platforms: [.linux]))]
        ),

        // One adapter per service around the C libraries; re-exports the store.
        .target(
            name: "LiveTranscriberLinux",
            dependencies: ["LiveTranscriberCore", "LiveTranscriberStore", "CPocketSphinx", "CSndFile", "CMpg123", "COpusFile", "CVorbisFile", "CSoxr", "CALSA", "CCrypto", "CMicroHTTPD", "CWhisper", "CWhisperLoader", "CSherpaOnnx"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", whisperLibrary, "-Xlinker", "-rpath", "-Xlinker", sherpaLibrary])]
        ),

        // The command framework and the commands that only read or change the library: no audio,
        // engine or network library, so the program that runs them starts in milliseconds.
        .target(name: "LiveTranscriberLibraryCLI", dependencies: ["LiveTranscriberCore", "LiveTranscriberTerminal", "LiveTranscriberStore"]),
        // Every command, as a library so tests can call it in-process.
        .target(name: "LiveTranscriberCLI", dependencies: ["LiveTranscriberCore", "LiveTranscriberTerminal", "LiveTranscriberLibraryCLI", "LiveTranscriberLinux"]),
        // `livetranscriber serve`: the web page, its JSON API and the wire types only it uses
        // (docs/serve.md). The CLI does not depend on it: the full program registers its command.
        .target(name: "LiveTranscriberServe",
                dependencies: ["LiveTranscriberCore", "LiveTranscriberTerminal", "LiveTranscriberLibraryCLI", "LiveTranscriberCLI", "LiveTranscriberLinux"],
                // The page's files, compiled into the binary as byte arrays (`PackageResources`): no
                // bundle to install, so `make install`'s copy of the program serves them too.
                resources: ["index.html", "page.css", "live.css", "app.js", "live.js", "element.js", "token-needed.html"].map { .embedInCode("Page/" + $0) }),
        .executableTarget(name: "livetranscriber", dependencies: ["LiveTranscriberLibraryCLI"]),
        .executableTarget(name: "livetranscriber-full", dependencies: ["LiveTranscriberCLI", "LiveTranscriberServe"]),
        // Benchmarks that call the library's API directly (make bench).
        .executableTarget(name: "livetranscriber-bench",
                         dependencies: ["LiveTranscriberCore", "LiveTranscriberLinux", "LiveTranscriberTestSupport"]),

        // Fakes for true boundaries only (the clock, a paid cloud API).
        .target(name: "LiveTranscriberTestSupport", dependencies: ["LiveTranscriberCore"]),

        .testTarget(name: "LiveTranscriberCoreTests",
                    dependencies: ["LiveTranscriberCore", "LiveTranscriberTestSupport"]),
        .testTarget(name: "LiveTranscriberTerminalTests",
                    dependencies: ["LiveTranscriberTerminal", "LiveTranscriberTestSupport"]),
        .testTarget(name: "LiveTranscriberLinuxTests",
                    dependencies: ["LiveTranscriberLinux", "LiveTranscriberStore", "LiveTranscriberTestSupport"]),
        .testTarget(name: "LiveTranscriberServeTests",
                    dependencies: ["LiveTranscriberServe", "LiveTranscriberCore", "LiveTranscriberLinux", "LiveTranscriberTestSupport"]),
        .testTarget(name: "LiveTranscriberCLITests",
                    dependencies: ["LiveTranscriberCLI", "LiveTranscriberServe", "LiveTranscriberLibraryCLI", "LiveTranscriberLinux", "LiveTranscriberStore", "LiveTranscriberTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
