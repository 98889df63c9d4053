import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberStore

/// The library commands the light `livetranscriber` runs itself (`LibraryCommands.light`), through
/// the built programs: the light one copied alone into a folder without `livetranscriber-full`
/// (so a command it handed over would fail with "not installed"), against the full one run directly.
@Suite("Library commands in the light program", .enabled(if: builtBinary != nil, "needs the built livetranscriber binaries (swift build --build-tests)"))
struct LightProgramTests {
    typealias Finished = LibraryProcessTests.Finished

    static let memo = "20261129-090000-aaaa", meeting = "20261129-204112-3f9a"
    static let absurd = "20261128-100000-abcd", unreadable = "20261127-080000-dead"

    /// A folder holding only a copy of the light program; removed by the caller.
    static func lightAlone() throws -> (folder: URL, program: URL) {
        let folder = try TestFolders.make("lt-light")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent("livetranscriber")
        try FileManager.default.copyItem(at: try binaryURL(), to: program)
        return (folder, program)
    }

    static var fullProgram: URL {
        get throws { try binaryURL().deletingLastPathComponent().appendingPathComponent("livetranscriber-full") }
    }

    /// The sample library, a WAV recording of 3 s whose metadata and index say a day (as an older
    /// version could have written), and a recording folder whose metadata.json is damaged.
    static func library() throws -> CLIHarness {
        let cli = try CLIHarness()
        try cli.sampleLibrary()
        var old = try cli.save(id: absurd, offset: -86_400, name: "Absurd", seconds: 3)
        try cli.save(id: unreadable, offset: -3 * 86_400, name: "Damaged", seconds: 1)
        let store = try cli.store()
        try Data("{garbage\n".utf8).write(to: cli.home.appendingPathComponent("recordings/\(unreadable)/metadata.json"))
        try store.reindex()
        old.durationSeconds = 86_400
        try JSONEncoder.liveTranscriber.encode(old).write(to: cli.home.appendingPathComponent("recordings/\(absurd)/metadata.json"))
        try store.keeper.current.upsert(old, segments: [])
        return cli
    }

    /// Every library command the light program now runs, with good and bad input.
    static let commandLines: [[String]] = [
        ["show", meeting], ["show", "latest", "--json"], ["show", absurd], ["show", "20261128"], ["show", "nope"],
        ["show", "2026"], ["show"], ["show", unreadable], ["show", "--help"],
        ["export", "latest", "--format", "srt"], ["export", "20261129-2041", "--format", "json"], ["export", absurd, "--format", "vtt"],
        ["export", "latest", "--format", "md", "--output", "OUT", "--json"], ["export", "latest", "--format", "txt", "--output", "OUT"],
        ["export", "latest", "--format", "mp3"], ["export", "latest"], ["export", unreadable, "--format", "txt"],
        ["rename", memo, "Renamed memo"], ["rename", absurd, "Fixed", "--json"], ["rename", "latest", "  "], ["rename", "nope", "x"],
        ["tag", meeting, "--add", "x,y", "--remove", "WORK"], ["tag", "latest", "--json"], ["tag", absurd], ["tag", memo, "--add", ""],
        ["delete", memo], ["delete", meeting, "--purge", "--json"], ["delete", unreadable], ["delete", "latest"], ["delete", "nope"],
    ]

    @Test("show, export, rename, tag and delete run in livetranscriber alone, with the same output, exit code and library afterwards as in livetranscriber-full",
          arguments: commandLines)
    func sameThroughBothPrograms(arguments: [String]) throws {
        let (folder, light) = try Self.lightAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (a, b) = (try Self.library(), try Self.library())
        defer { a.remove(); b.remove() }
        func run(_ program: URL, _ cli: CLIHarness) throws -> (Finished, exported: Data?) {
            let output = cli.home.path + "-export.out"
            defer { try? FileManager.default.removeItem(atPath: output) }
            let finished = try LibraryProcessTests.run(arguments.map { $0 == "OUT" ? output : $0 }, home: cli.home, program: program)
            return (finished, FileManager.default.contents(atPath: output))
        }
        let (byLight, lightFile) = try run(light, a)
        let (byFull, fullFile) = try run(try Self.fullProgram, b)
        let samePaths = { (text: String) in text.replacingOccurrences(of: b.home.path, with: a.home.path) }
        #expect(byLight.code == byFull.code)
        #expect(byLight.stdout == samePaths(byFull.stdout))
        #expect(byLight.stderr == samePaths(byFull.stderr))
        #expect(!byLight.stderr.contains("livetranscriber-full"), "the light program ran it itself")
        #expect(lightFile == fullFile)
        // The libraries are the same afterwards, read by either program.
        for check in [["list", "--json"], ["show", Self.absurd, "--json"]] {
            let (left, right) = (try LibraryProcessTests.run(check, home: a.home, program: light),
                                 try LibraryProcessTests.run(check, home: b.home, program: try Self.fullProgram))
            #expect(left.code == right.code && left.stdout == samePaths(right.stdout) && left.stderr == samePaths(right.stderr), "\(check)")
        }
        #expect(FileManager.default.fileExists(atPath: a.home.appendingPathComponent("trash").path))
        #expect(try Self.folders(a.home, "trash") == Self.folders(b.home, "trash"))
        #expect(try Self.folders(a.home, "recordings") == Self.folders(b.home, "recordings"))
    }

    static func folders(_ home: URL, _ name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent(name).path).sorted()
    }

    @Test("a WAV recording longer than its audio is corrected by the light program (header read by the store); a FLAC one is shown as stated, with no error, until the full program reads it")
    func durationRuleWithoutLibsndfile() throws {
        let (folder, light) = try Self.lightAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try Self.library()
        defer { cli.remove() }
        let shown = try LibraryProcessTests.run(["show", Self.absurd], home: cli.home, program: light)
        #expect(shown.code == 0 && shown.stderr == "")
        #expect(shown.stdout.contains("Duration:  0:03\n"))
        #expect(try LibraryProcessTests.run(["list"], home: cli.home, program: light).stdout.contains("\(Self.absurd)  2026-11-28 20:41  0:03 "))

        // Recording "flac": 1 s of FLAC audio, a day in its metadata and in the index.
        var flac = try cli.save(id: "20261126-070000-f1ac", offset: -4 * 86_400, name: "Lossless", seconds: 1)
        let recording = cli.home.appendingPathComponent("recordings/\(flac.id)")
        try FileManager.default.removeItem(at: recording.appendingPathComponent("audio.wav"))
        let writer = try SndFileWriter(path: recording.appendingPathComponent("audio.flac").path,
                                       format: AudioFormat(sampleRate: 16_000, channels: 1), fileFormat: .flac)
        try writer.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16_000), channels: 1))
        try writer.close()
        (flac.durationSeconds, flac.audio.format) = (86_400, "flac")
        try JSONEncoder.liveTranscriber.encode(flac).write(to: recording.appendingPathComponent("metadata.json"))
        try cli.store().keeper.current.upsert(flac, segments: [])
        let stated = try LibraryProcessTests.run(["show", flac.id], home: cli.home, program: light)
        #expect(stated.code == 0 && stated.stderr == "")
        #expect(stated.stdout.contains("Duration:  24:00:00\n"))
        let corrected = try LibraryProcessTests.run(["show", flac.id], home: cli.home, program: try Self.fullProgram)
        #expect(corrected.code == 0 && corrected.stderr == "")
        #expect(corrected.stdout.contains("Duration:  0:01\n"))
        #expect(try LibraryProcessTests.run(["show", flac.id], home: cli.home, program: light).stdout == corrected.stdout)
    }
}
