import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// A library folder copied from an iPhone, holding an M4A recording: everything but its audio
/// works on Linux, and what needs the audio says so in one line. M4A cannot be recorded here.
@Suite("An iPhone library with M4A on Linux")
struct IPhoneLibraryTests {
    static let id = "20261129-204112-a4ac"

    /// The recording folder as the app writes it: audio.m4a, metadata.json and transcript.json.
    static func copyIPhoneRecording(into cli: CLIHarness) throws {
        let folder = cli.home.appendingPathComponent("recordings/\(id)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("\0\0\0\u{1C}ftypM4A encoded on an iPhone".utf8).write(to: folder.appendingPathComponent("audio.m4a"))
        let recording = Recording(id: id, name: "Bus stop", createdAt: CLIHarness.t0, durationSeconds: 12, language: "en-US",
                                  tags: ["walk"], audio: AudioDescription(format: "m4a", sampleRate: 48_000, channels: 2))
        try JSONEncoder.liveTranscriber.encode(recording).write(to: folder.appendingPathComponent("metadata.json"))
        try JSONEncoder.liveTranscriber.encode([
            TranscriptSegment(text: "the bus is late again", startSeconds: 1, endSeconds: 3.5),
            TranscriptSegment(text: "smaller files are nicer", startSeconds: 6, endSeconds: 9),
        ]).write(to: folder.appendingPathComponent("transcript.json"))
    }

    @Test("list, show, search and export work on an M4A recording; show says its audio is not readable here")
    func transcriptsWork() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        _ = try cli.store()  // the library exists before the folder is copied in
        try Self.copyIPhoneRecording(into: cli)
        let list = cli.run(["list"])
        #expect(list.code == 0)
        #expect(list.stdout.contains("\(Self.id)  2026-11-29 20:41  0:12      Bus stop  walk"))
        let show = cli.run(["show", Self.id])
        #expect(show.code == 0 && show.stderr == "")
        #expect(show.stdout.contains("Audio:     m4a, 48000 Hz, 2 channels (not readable on this machine)\n"))
        #expect(show.stdout.hasSuffix("[0:01] the bus is late again\n[0:06] smaller files are nicer\n"))
        let search = cli.run(["search", "smaller", "--json"])
        #expect(search.code == 0)
        #expect(search.stdout.contains(Self.id))
        let export = cli.run(["export", Self.id, "--format", "srt"])
        #expect(export.code == 0)
        #expect(export.stdout == """
            1
            00:00:01,000 --> 00:00:03,500
            the bus is late again

            2
            00:00:06,000 --> 00:00:09,000
            smaller files are nicer

            """)
    }

    @Test("retranscribe of an M4A recording is refused in one line, before anything is uploaded or changed", arguments: [
        [String](), ["--engine", "openai"],
    ])
    func retranscribeRefused(engine: [String]) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try Self.copyIPhoneRecording(into: cli)
        let folder = cli.home.appendingPathComponent("recordings/\(Self.id)")
        let before = try Data(contentsOf: folder.appendingPathComponent("transcript.json"))
        let run = cli.run(["retranscribe", Self.id] + engine)
        #expect(run.code == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "error: 'Bus stop' cannot be transcribed again here: the audio is M4A (AAC), which libsndfile cannot read "
                + "on this machine; the transcript can still be listed, shown, searched and exported.\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("transcript.json")) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("transcript.previous.json").path))
    }

    @Test("record and import --format m4a: one usage line, exit 64, nothing created", arguments: [
        ["record", "--input", "-", "--rate", "16000", "--channels", "1", "--format", "m4a"],
        ["import", "/nonexistent/any.wav", "--format", "m4a"],
    ])
    func m4aNotRecordedHere(arguments: [String]) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let run = cli.run(arguments)
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("error: --format m4a: M4A (AAC) cannot be recorded here (libsndfile cannot write it); use wav, flac or opus.\n"))
        #expect(run.stderr.split(separator: "\n").count == 3)  // the line, then the command's usage and help hint, as every usage error
        let drafts = cli.home.appendingPathComponent("drafts").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: drafts)) ?? []).isEmpty)
    }

    @Test("an unknown --format names the formats this machine records")
    func unknownFormat() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let run = cli.run(["import", "/nonexistent/any.wav", "--format", "mp3"])
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix("error: --format takes wav, flac or opus, not 'mp3'\n"))
    }
}
