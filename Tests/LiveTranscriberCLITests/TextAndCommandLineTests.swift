import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// Issue 8, items 17–29, through the real command dispatcher.
@Suite("Text, names, the live view and the command line")
struct TextAndCommandLineTests {
    // MARK: 17–20 text and names

    @Test("item 17: search finds Straße by strasse and marks the original spelling")
    func eszettSearch() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-204112-3f9a", name: "Straße Planung", tags: ["Fußball"])
        for query in ["Straße", "strasse", "STRASSE", "Fußball", "fussball"] {
            #expect(cli.run(["search", query]).stdout.hasPrefix("20261129-204112-3f9a  Straße Planung  ("), "query \(query)")
        }
        #expect(cli.run(["search", "strasse"]) == .init(code: 0, stdout: "20261129-204112-3f9a  Straße Planung  (name)  [Straße] Planung\n", stderr: ""))
    }

    @Test("item 18: a bidi override in a name is refused by rename and --name; an imported file name is cleaned")
    func bidiNames() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-204112-3f9a", name: "Memo")
        #expect(cli.run(["rename", "latest", "invoice\u{202E}fdp.exe"]) == .init(code: 64, stdout: "",
            stderr: "error: NAME cannot contain control or invisible formatting characters (found U+202E)\nusage: livetranscriber rename <id> <name> [--json]\nSee 'livetranscriber rename --help'.\n"))
        let record = cli.run(["record", "--input", "a.wav", "--name", "x\u{2066}y"])
        #expect(record.code == 64)
        #expect(record.stderr.hasPrefix("error: --name cannot contain control or invisible formatting characters (found U+2066)\n"))
        #expect(OptionParsing.name(fromFileName: "talk\u{202E}vaw") == "talk vaw")
        #expect(try cli.store().resolve("latest").name == "Memo")
    }

    @Test("item 19: escapes from a path or a transcript are shown, never sent to the terminal")
    func escapesShown() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let imported = cli.run(["import", "/nonexistent/talk\u{1B}]0;owned\u{7}.wav"])
        #expect(imported.code == 1)
        #expect(!imported.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
        #expect(imported.stderr.contains("talk\\u{1B}]0;owned\\u{7}.wav"))
        try cli.save(id: "20261129-204112-3f9a", name: "Memo", segments: [
            TranscriptSegment(text: "hello \u{1B}[2J world", startSeconds: 1, endSeconds: 2)])
        let shown = cli.run(["show", "latest"])
        #expect(shown.stdout.hasSuffix("[0:01] hello \\u{1B}[2J world\n"))
        #expect(!shown.stdout.contains("\u{1B}"))
        // JSON keeps the exact text (JSON escapes it its own way).
        let json = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(cli.run(["show", "latest", "--json"]).stdout.utf8))
        #expect(json.segments[0].text == "hello \u{1B}[2J world")
    }

    @Test("item 20: tag --add \"a,b\" adds two tags, as --tags does; --remove splits the same way")
    func tagCommas() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-204112-3f9a", name: "Memo", tags: ["Work"])
        #expect(cli.run(["tag", "latest", "--add", "a,b"]).stdout == "Tags of 20261129-204112-3f9a: Work, a, b\n")
        #expect(cli.run(["tag", "latest", "--remove", "WORK, b"]).stdout == "Tags of 20261129-204112-3f9a: a\n")
        #expect(cli.run(["tag", "latest", "--add", " , "]).code == 64)
        #expect(try cli.store().resolve("latest").tags == ["a"])
    }

    // MARK: 21–25 the live view

    final class Sizes: @unchecked Sendable { var value = (columns: 60, rows: 40) }

    func snapshot(finals: Int) -> LiveViewSnapshot {
        let attributes = RecordingActivityAttributes(recordingID: "r", name: "Memo", startDate: Date(timeIntervalSince1970: 0))
        let content = RecordingActivityAttributes.ContentState(status: .recording, timerReferenceDate: Date(timeIntervalSince1970: 0),
                                                               elapsedSeconds: nil, transcript: "", language: "en-US", segmentCount: finals)
        return LiveViewSnapshot(presentation: LockScreenPresentation(attributes: attributes, content: content), elapsedSeconds: 12, transcribedSeconds: 12,
                                totalSeconds: nil,
                                finals: (0..<finals).map { TranscriptSegment(text: "line \($0) of the talk", startSeconds: Double($0), endSeconds: Double($0) + 1) },
                                interim: nil, acceptsKeys: true)
    }

    @Test("item 21: at 60×10 every redraw moves back over exactly the 9 lines it drew (the 10th row keeps the cursor)")
    func smallTerminal() {
        let output = BufferOutput(isTerminal: true)
        let sizes = Sizes()
        sizes.value = (60, 10)
        let view = LiveTerminalView(output: output, color: false, size: { sizes.value })
        view.render(snapshot(finals: 20))
        view.render(snapshot(finals: 21))
        let draws = output.text.components(separatedBy: "\u{1B}[")
        #expect(output.text.hasPrefix("\u{1B}[?25l\r\u{1B}[K╭"))
        let first = output.text.components(separatedBy: "\n").count - 1
        #expect(draws.filter { $0.hasPrefix("9F") }.count == 1)
        #expect(first == 18)  // two cards of 9 lines each
        sizes.value = (15, 10)
        view.render(snapshot(finals: 21))
        #expect(output.text.hasSuffix("\u{1B}[9F\u{1B}[J● 0:12 Record…"))
        view.render(snapshot(finals: 22))
        #expect(output.text.hasSuffix("\r\u{1B}[K● 0:12 Record…"))
        view.finish()
        #expect(output.text.hasSuffix("\n\u{1B}[?25h"))
    }

    @Test("item 22: --activity-feed - with stdout on a terminal shows the feed alone")
    func feedAlone() throws {
        let options = RecordingOptions(input: .file(path: "a.wav"), speed: .max, name: nil, tags: [], location: nil, format: .wav,
                                       activityFeed: "-", json: false, discard: false,
                                       speech: SpeechOptions(engineChoice: .pocketsphinx, language: "en-US", model: nil))
        let terminal = CommandContext(stdout: BufferOutput(isTerminal: true), stderr: BufferOutput(isTerminal: true), environment: [:])
        #expect(RecordingDisplays.forRecord(options, context: terminal) is SilentDisplay)
        let piped = CommandContext(stdout: BufferOutput(isTerminal: false), stderr: BufferOutput(isTerminal: true), environment: [:])
        #expect(RecordingDisplays.forRecord(options, context: piped) is LiveCardDisplay)
    }

    @Test("item 23: the first card clears the line a typed q was echoed on; a stop before any audio says so")
    func stoppedBeforeAudio() {
        let output = BufferOutput(isTerminal: true)
        let view = LiveTerminalView(output: output, color: false, size: { (40, 24) })
        output.write("q")  // echoed by the terminal before key input was set up
        view.render(snapshot(finals: 0))
        #expect(output.text.hasPrefix("\u{1B}[?25lq\r\u{1B}[K╭──"))
        #expect(RecordingInterrupted.stoppedBeforeAudio.description == "stopped before any audio was recorded; nothing was saved")
    }

    @Test("item 24: a 2.99 s recording is 0:02 in the saved line, list, show and exports")
    func oneRounding() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let wav = cli.home.appendingPathComponent("299.wav")
        try WAVFixture.make(audio: WAVFixture.silence(bytes: 47_840 * 2)).write(to: wav)
        let recorded = cli.run(["record", "--input", wav.path, "--speed", "max", "--name", "Short"])
        #expect(recorded.stdout.hasSuffix(": 0:02, 0 segments.\n"), "\(recorded)")
        #expect(cli.run(["list"]).stdout.contains("  0:02      Short"))
        #expect(cli.run(["show", "latest"]).stdout.contains("Duration:  0:02\n"))
        #expect(cli.run(["export", "latest", "--format", "md"]).stdout.contains("- Duration: 00:00:02\n"))
    }

    @Test("item 25: TERM=dumb is not a terminal even on a tty")
    func dumbTerminal() {
        #expect(!TerminalCardRenderer.isInteractiveTerminal(isatty: true, environment: ["TERM": "dumb"]))
        #expect(!FileDescriptorOutput(fileDescriptor: 1, environment: ["TERM": "dumb"]).isTerminal)
    }

    // MARK: 26–29 the command line

    @Test("item 27: list --since takes the date list prints and ISO times without a zone, in local time", arguments: [
        ("2026-11-29 20:41", ["20261129-204112-3f9a"]),
        ("2026-11-29T20:42", []),
        ("2026-11-29T09:00", ["20261129-204112-3f9a", "20261129-090000-aaaa"]),
        ("2026-11-29T09:00:01", ["20261129-204112-3f9a"]),
        ("2026-11-29", ["20261129-204112-3f9a", "20261129-090000-aaaa"]),
        ("2026-11-29T20:41:00Z", ["20261129-204112-3f9a"]),
    ])
    func since(text: String, ids: [String]) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let result = cli.run(["list", "--since", text, "--json"])
        #expect(result.code == 0, "\(result.stderr)")
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(result.stdout.utf8))
        #expect(recordings.map(\.id) == ids)
    }

    @Test("item 27: show with a prefix matching 6 says how many more than the 5 it lists")
    func ambiguous() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        for index in 1...6 { try cli.save(id: "2026112\(index)-000000-aaaa", offset: Double(index), name: "R\(index)") }
        #expect(cli.run(["show", "2026"]) == .init(code: 1, stdout: "", stderr: "error: '2026' matches 6 recordings (20261121-000000-aaaa, 20261122-000000-aaaa, 20261123-000000-aaaa, 20261124-000000-aaaa, 20261125-000000-aaaa and 1 more); give more of the id.\n"))
    }

    @Test("item 27: a 100 KB search is not echoed back")
    func longSearch() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let result = cli.run(["search", String(repeating: "x", count: 100_000)])
        #expect(result.stdout == "No matches for '" + String(repeating: "x", count: 59) + "…'.\n")
    }

    @Test("item 27: a relative XDG_DATA_HOME is ignored, a blank LIVETRANSCRIBER_HOME is unset; a LIVETRANSCRIBER_HOME that is a file is named as one")
    func dataDirectory() throws {
        let relative = CommandContext(stdout: BufferOutput(), stderr: BufferOutput(), environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
        #expect(relative.dataDirectory.path == "/home/u/.local/share/livetranscriber")
        let absolute = CommandContext(stdout: BufferOutput(), stderr: BufferOutput(), environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
        #expect(absolute.dataDirectory.path == "/data/livetranscriber")
        for blank in ["", " ", "\t\n"] {
            let context = CommandContext(stdout: BufferOutput(), stderr: BufferOutput(), environment: ["LIVETRANSCRIBER_HOME": blank, "HOME": "/home/u"])
            #expect(context.dataDirectory.path == "/home/u/.local/share/livetranscriber")
            #expect(context.dataDirectorySource == "HOME")
        }
        let folder = try TestFolders.make("lt-home-file")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notafolder")
        try Data("x".utf8).write(to: file)
        let stdout = BufferOutput(), stderr = BufferOutput()
        let code = fullProgram.main(["list"], context: CommandContext(stdout: stdout, stderr: stderr, environment: ["LIVETRANSCRIBER_HOME": file.path]))
        #expect(code == 1)
        #expect(stderr.text == "error: the library folder \(file.path) is a file, not a folder (set by LIVETRANSCRIBER_HOME); point LIVETRANSCRIBER_HOME at a folder\n")
        #expect(try Data(contentsOf: file) == Data("x".utf8))
    }

    @Test("item 27: --speed takes decimal numbers only, and not with standard input", arguments: [
        (["record", "--input", "a.wav", "--speed", "0x10"], "error: --speed takes a number from 0.1 to 100 or 'max', not '0x10'\n"),
        (["record", "--input", "a.wav", "--speed", "1e1"], "error: --speed takes a number from 0.1 to 100 or 'max', not '1e1'\n"),
        (["record", "--input", "-", "--rate", "16000", "--speed", "2"], "error: --speed applies to files; standard input is read as it arrives\n"),
    ])
    func speed(arguments: [String], stderrPrefix: String) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let result = cli.run(arguments)
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix(stderrPrefix))
        #expect(try PlaybackSpeed.parse("2.5") == .factor(2.5))
    }

    @Test("item 27: one signal convention, 128 + the signal's number")
    func signals() {
        #expect(ExitCode.stopped(by: SIGINT) == 130)
        #expect(ExitCode.stopped(by: SIGTERM) == 143)
        #expect(ExitCode.stopped(by: SIGHUP) == 129)
    }

    @Test("item 27: summarize prints the summary and tags exactly as stored (a tag the recording has keeps its case)")
    func summarizeCase() throws {
        let recording = CLIFixtures.recording(tags: ["Budget"])
        let store = InMemoryRecordingStore(recordings: [recording], transcripts: [recording.id: CLIFixtures.segments])
        let model = ScriptedLanguageModel(answers: ["- Budget shifts to marketing", "Budget moves from travel to marketing.", "budget, MARKETING"])
        let run = runCommand(SummarizeCommand.self, ["latest", "--engine", "openai"]) {
            $0.services.store = { _ in store }
            $0.languageModel = { _ in model }
        }
        #expect(run.code == 0, "\(run.stderr)")
        let saved = try store.resolve("latest")
        #expect(saved.tags == ["Budget", "marketing"])
        #expect(run.stdout == "\(saved.summary ?? "")\nTags: Budget, marketing\n")
    }

    @Test("item 28: export --output --json, activity preview --json and record --json --discard print JSON")
    func jsonEverywhere() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let path = cli.home.deletingLastPathComponent().appendingPathComponent("lt-export-\(UUID().uuidString).srt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let exported = cli.run(["export", "latest", "--format", "srt", "--output", path, "--json"])
        #expect(exported.code == 0, "\(exported.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).count
        #expect(exported.stdout == "{\n  \"bytes\" : \(bytes),\n  \"format\" : \"srt\",\n  \"id\" : \"20261129-204112-3f9a\",\n  \"path\" : \"\(path)\"\n}\n")
        #expect(cli.run(["export", "latest", "--format", "srt", "--json"]).code == 64)

        // Outside the library: output paths inside it are refused (issue 8, item 14).
        let out = cli.home.deletingLastPathComponent().appendingPathComponent("lt-svg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let preview = cli.run(["activity", "preview", "--out", out, "--json"])
        struct File: Decodable, Equatable { var presentation: String; var path: String; var width: Int; var height: Int }
        let files = try JSONDecoder().decode([File].self, from: Data(preview.stdout.utf8))
        #expect(files.map(\.presentation) == ["lock-screen", "island-expanded", "island-compact", "island-minimal"])
        #expect(files[0] == File(presentation: "lock-screen", path: out + "/lock-screen.svg", width: 364, height: 160))

        let discarded = cli.run(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--discard", "--json"])
        #expect(discarded.stdout == "{\n  \"discarded\" : true\n}\n")
    }

    @Test("item 29: completions for bash, zsh and fish and a man page come from the command specs")
    func completionsAndManPage() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let bash = cli.run(["completion", "bash"]).stdout
        #expect(bash.contains("complete -o filenames -F _livetranscriber livetranscriber"))
        #expect(bash.contains("\"record\") options=\"--input --rate --channels --device --speed --name --tags --location --format --engine --language --model --vocabulary --no-vocabulary --speakers --no-speakers --activity-feed --events --json --discard --no-refine --stats --help\""))
        #expect(bash.contains("\"activity preview\") options="))
        let zsh = cli.run(["completion", "zsh"]).stdout
        #expect(zsh.hasPrefix("#compdef livetranscriber\n"))
        #expect(zsh.contains("'*--add=[Add these tags, separated by commas (repeatable).]:tags:_files'"))
        let fish = cli.run(["completion", "fish"]).stdout
        #expect(fish.contains("complete -c livetranscriber -n '__fish_seen_subcommand_from search' -l limit -r -F -d 'Show at most this many recordings (default 20).'"))
        #expect(cli.run(["completion", "tcsh"]).code == 64)
        let man = cli.run(["manpage"]).stdout
        #expect(man.hasPrefix(".TH LIVETRANSCRIBER 1 \"\" \"livetranscriber 0.1.0\" \"User Commands\"\n"))
        #expect(man.contains(".SS \"record\"\nRecord and transcribe live, then save the recording to the library.\n"))
        #expect(man.contains(".TP\n.B \\-\\-json\n"))
        // The environment names every variable the programs read; exit 1 is worded for partial failures.
        for variable in ["LIVETRANSCRIBER_HOME", "LIVETRANSCRIBER_ENGINE", "LIVETRANSCRIBER_MODELS", "LIVETRANSCRIBER_VOCABULARY", "OPENAI_API_KEY, OPENAI_API_KEY_FILE", "NO_COLOR", "TZ"] {
            #expect(man.contains(".B \(variable)"), "\(variable)")
        }
        #expect(!man.contains("The command failed; nothing was changed."))
        #expect(man.contains("an \\fBimport\\fR of several files keeps the files it imported and exits 1 when any other failed"))

        // The shells accept the scripts and groff the page, when they are installed.
        let bashCheck = try runTool("/bin/bash", ["-n"], input: bash)
        #expect(bashCheck.status == 0, "\(bashCheck.errors)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let groff = try runTool("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z"], input: man)
            #expect(groff.status == 0)
            #expect(groff.errors == "", "groff warnings: \(groff.errors)")
        }
    }

    @Test("item 29: make install and uninstall put exactly these files under PREFIX (dry run)")
    func makeInstall() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.arguments = ["-n", "-C", root.path, "install", "uninstall", "PREFIX=/opt/lt"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for line in [
            "install -m 0755 .build/install/release/livetranscriber /opt/lt/bin/livetranscriber",
            ".build/install/release/livetranscriber manpage > /opt/lt/share/man/man1/livetranscriber.1",
            ".build/install/release/livetranscriber completion bash > /opt/lt/share/bash-completion/completions/livetranscriber",
            ".build/install/release/livetranscriber completion zsh > /opt/lt/share/zsh/site-functions/_livetranscriber",
            ".build/install/release/livetranscriber completion fish > /opt/lt/share/fish/vendor_completions.d/livetranscriber.fish",
            "rm -f \"/opt/lt/bin/livetranscriber\" \"/opt/lt/share/man/man1/livetranscriber.1\" \"/opt/lt/share/bash-completion/completions/livetranscriber\" \\",
            "cp -a .deps/whisper/lib/libwhisper.so* .deps/whisper/lib/libggml*.so* /opt/lt/lib/livetranscriber/",
            "install -m 0644 .deps/models/ggml-base.bin .deps/models/ggml-silero-vad.bin /opt/lt/share/livetranscriber/models/",
            "install -m 0644 .deps/sherpa-onnx/lib/libsherpa-onnx-c-api.so .deps/sherpa-onnx/lib/libonnxruntime.so /opt/lt/lib/livetranscriber/",
            "install -m 0644 .deps/models/speaker-segmentation.onnx .deps/models/speaker-embedding.onnx /opt/lt/share/livetranscriber/models/",
            "rm -rf \"/opt/lt/lib/livetranscriber/pywhispercpp.libs\"; \\",
            "make --no-print-directory install-folders",
            "install -d \"$root\"/bin \"$root\"/share/man/man1 \"$root\"/share/bash-completion/completions \"$root\"/share/zsh/site-functions "
                + "\"$root\"/share/fish/vendor_completions.d \"$root\"/lib/livetranscriber \"$root\"/share/livetranscriber/models || exit 1; \\",
        ] {
            #expect(text.contains(line + "\n"), "missing: \(line)")
        }
        #expect(text.contains("--static-swift-stdlib"))
        #expect(text.contains("-Xlinker -rpath -Xlinker '$ORIGIN/../lib/livetranscriber'"))
    }

    func runTool(_ path: String, _ arguments: [String], input: String) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }
}
