import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
@testable import LiveTranscriberStore
import Testing
import LiveTranscriberTestSupport

@Suite("Library commands in a second process", .enabled(if: builtBinary != nil, "needs the built livetranscriber binary (swift build --build-tests)"))
struct LibraryProcessTests {
    struct Finished {
        var code: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs the binary (`program`, else the built one) with the library in `home` and waits for it.
    static func run(_ arguments: [String], home: URL, program: URL? = nil) throws -> Finished {
        let process = Process()
        process.executableURL = program ?? builtBinary
        process.arguments = arguments
        process.environment = ["LIVETRANSCRIBER_HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"].merging(sanitizerEnvironment) { $1 }
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(started))
    }

    @Test("a rename in another process waits for this process's write transaction, then succeeds; a list does not wait")
    func renameWaitsListDoesNot() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let blocker = try SQLiteDatabase(path: cli.home.appendingPathComponent("library.sqlite").path)
        try blocker.execute("BEGIN IMMEDIATE")
        let list = try Self.run(["list", "--json"], home: cli.home)
        #expect(list.code == 0)
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).count == 2)

        let home = cli.home
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var rename: Result<Finished, any Error>?
        Thread {
            rename = Result { try Self.run(["rename", "20261129-204112-3f9a", "Renamed elsewhere"], home: home) }
            finished.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.8)
        try blocker.execute("COMMIT")
        finished.wait()
        let result = try #require(try rename?.get())
        #expect(result.code == 0)
        #expect(result.stdout == "Renamed 20261129-204112-3f9a to 'Renamed elsewhere'.\n")
        #expect(result.stderr == "")
        #expect(result.seconds >= 0.7)
        #expect(try cli.store().resolve("20261129-204112-3f9a").name == "Renamed elsewhere")
    }

    @Test("no command at all: both programs print the overview on stderr and exit 64, nothing on stdout")
    func noArguments() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let full = try binaryURL().deletingLastPathComponent().appendingPathComponent("livetranscriber-full")
        let help = try Self.run(["--help"], home: cli.home)
        for program in [try binaryURL(), full] {
            let bare = try Self.run([], home: cli.home, program: program)
            #expect(bare.code == 64, "\(program.path)")
            #expect(bare.stdout == "")
            #expect(bare.stderr == help.stdout)
            #expect(bare.stderr.hasPrefix("OVERVIEW: Live transcription recorder"))
        }
    }

    @Test("--help CMD shows CMD's help as help CMD does; --version takes nothing after it")
    func helpAndVersionArguments() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let listHelp = try Self.run(["help", "list"], home: cli.home)
        #expect(listHelp.code == 0)
        #expect(listHelp.stdout.contains("livetranscriber list"))
        for flag in ["--help", "-h"] {
            let asked = try Self.run([flag, "list"], home: cli.home)
            #expect(asked.code == 0 && asked.stdout == listHelp.stdout, "\(flag)")
        }
        let overview = try Self.run(["--help"], home: cli.home)
        #expect(try Self.run(["help", "--help"], home: cli.home).stdout == overview.stdout)
        let version = try Self.run(["--version"], home: cli.home)
        #expect(version.code == 0 && version.stdout.hasPrefix("livetranscriber "))
        let extra = try Self.run(["--version", "extra"], home: cli.home)
        #expect(extra.code == 64)
        #expect(extra.stdout == "")
        #expect(extra.stderr == "error: --version takes nothing after it. See 'livetranscriber --help'.\n")
    }

    @Test("livetranscriber runs the library commands alone and hands the others to livetranscriber-full beside it, with the same arguments and exit code")
    func twoPrograms() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        // Through the built pair: help listing every command comes from the full program.
        let help = try Self.run(["--help"], home: cli.home)
        #expect(help.code == 0)
        #expect(help.stdout.contains("  record ") && help.stdout.contains("  search ") && help.stdout.contains("  manpage "))
        let unknown = try Self.run(["frobnicate"], home: cli.home)
        #expect(unknown.code == 64)
        #expect(unknown.stderr == "error: unknown command 'frobnicate'. See 'livetranscriber --help'.\n")
        // The light program alone, in a folder without the full one: the library commands work...
        let alone = cli.home.deletingLastPathComponent().appendingPathComponent("alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let light = alone.appendingPathComponent("livetranscriber")
        try FileManager.default.copyItem(at: try binaryURL(), to: light)
        let list = try Self.run(["list", "--json"], home: cli.home, program: light)
        #expect(list.code == 0)
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).count == 2)
        #expect(try Self.run(["search", "--help"], home: cli.home, program: light).code == 0)
        // ...and any other command says what is missing, on one line, with exit 1.
        let record = try Self.run(["record", "--input", "x.wav"], home: cli.home, program: light)
        #expect(record.code == 1)
        #expect(record.stdout == "")
        let folder = alone.resolvingSymlinksInPath()
        #expect(record.stderr == "error: this command needs livetranscriber-full, which is not installed: looked for "
            + "\(folder.path)/livetranscriber-full and \(folder.deletingLastPathComponent().path)/lib/livetranscriber/livetranscriber-full; "
            + "reinstall livetranscriber (make install)\n")
        // A full program that is there but cannot be run is named as such, not as missing.
        let full = alone.appendingPathComponent("livetranscriber-full")
        try Data("#!/bin/sh\n".utf8).write(to: full)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: full.path)
        let unrunnable = try Self.run(["record", "--input", "x.wav"], home: cli.home, program: light)
        #expect(unrunnable.code == 1)
        #expect(unrunnable.stderr == "error: this command needs livetranscriber-full, which exists at \(folder.path)/livetranscriber-full "
            + "but cannot be run (not executable); reinstall livetranscriber (make install)\n")
    }

    @Test("without the full program, a crashed draft does not stop list, search or list --help: they read the index as it is and say what waits, once")
    func draftWaitsForTheFullProgram() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        do {  // a draft whose recorder died: its lock is released when the value goes
            let draft = try cli.store().createDraft(id: "20261129-210000-dddd", createdAt: CLIHarness.t0, language: "en-US",
                                                    audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 32_000)).write(to: draft.audioFile)
        }
        let alone = cli.home.deletingLastPathComponent().appendingPathComponent("alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let light = alone.appendingPathComponent("livetranscriber")
        try FileManager.default.copyItem(at: try binaryURL(), to: light)
        let folder = alone.resolvingSymlinksInPath()
        let note = "note: a recording interrupted by a crash is waiting to be recovered; that needs livetranscriber-full, which is not installed: "
            + "looked for \(folder.path)/livetranscriber-full and \(folder.deletingLastPathComponent().path)/lib/livetranscriber/livetranscriber-full; "
            + "reinstall livetranscriber (make install), then run 'livetranscriber recover'. Until then it is not in the library.\n"

        let list = try Self.run(["list"], home: cli.home, program: light)
        #expect(list.code == 0)
        #expect(list.stdout == """
            ID                    DATE              DURATION  NAME          TAGS
            20261129-204112-3f9a  2026-11-29 20:41  2:10      Café meeting  work, team
            20261129-090000-aaaa  2026-11-29 09:00  0:05      Memo          personal

            """)
        #expect(list.stderr == note)
        let search = try Self.run(["search", "planner"], home: cli.home, program: light)
        #expect(search.code == 0)
        #expect(search.stdout == "20261129-204112-3f9a  Café meeting  [0:00]  we discussed the multi-agent [planner]\n")
        #expect(search.stderr == note)
        let help = try Self.run(["list", "--help"], home: cli.home, program: light)
        #expect(help.code == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(cli.draftNames == ["20261129-210000-dddd"])  // left for the full program

        // With the full program there, the next list recovers it first.
        let recovered = try Self.run(["list", "--json"], home: cli.home)
        #expect(recovered.code == 0)
        #expect(recovered.stderr.hasPrefix("note: recovered an interrupted recording: 20261129-210000-dddd "))
        #expect(cli.draftNames == [])
    }

    @Test("the binary exits 64 for a usage error and 1 for an unknown recording")
    func exitCodes() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let usage = try Self.run(["show"], home: cli.home)
        #expect(usage.code == 64)
        #expect(usage.stderr.hasPrefix("error: missing ID\n"))
        let missing = try Self.run(["show", "nope"], home: cli.home)
        #expect(missing.code == 1)
        #expect(missing.stderr == "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n")
    }
}
