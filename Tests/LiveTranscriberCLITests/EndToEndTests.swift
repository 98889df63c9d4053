import Foundation
import LiveTranscriberCore
import Testing

@Suite("The main job end to end, with the built binary")
struct EndToEndTests {
    @Test("record real speech into a temporary library, then list --json, show, search, export and summarize it")
    func recordListExport() throws {
        let library = try TemporaryLibrary()
        let env = library.environment.merging(["TZ": "UTC"]) { $1 }
        let recorded = try runBinary(["record", "--input", Speech.librivox, "--speed", "max", "--name", "Austen", "--tags", "book"],
                                     environment: env)
        #expect(recorded.exitCode == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.hasPrefix("[0:00] "))

        let listed = try runBinary(["list", "--json"], environment: env)
        #expect(listed.exitCode == 0)
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8))
        let recording = try #require(recordings.first)
        #expect(recordings.count == 1)
        #expect(recording.name == "Austen" && recording.tags == ["book"] && recording.language == "en-US")
        #expect(recording.audio == AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(abs(recording.durationSeconds - 2.99) < 0.01)

        let shown = try runBinary(["show", "latest", "--json"], environment: env)
        let withTranscript = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
        let segment = try #require(withTranscript.segments.first)
        #expect(withTranscript.segments.count == 1)
        #expect(segment.text.hasPrefix("he was not"))

        let srt = try runBinary(["export", String(recording.id.prefix(15)), "--format", "srt"], environment: env)
        #expect(srt.exitCode == 0)
        #expect(srt.stdout.hasPrefix("1\n00:00:00,"))
        #expect(srt.stdout.contains(" --> 00:00:0"))
        #expect(srt.stdout.contains(segment.text))

        let found = try runBinary(["search", "YOUNG"], environment: env)
        #expect(found.exitCode == 0)
        #expect(found.stdout.contains("[young]"))
        #expect(found.stdout.hasPrefix(recording.id))
        let exported = try runBinary(["export", recording.id, "--format", "txt"], environment: env)
        #expect(exported.stdout.contains(segment.text))

        // summarize works offline on the real recording, and search then finds the summary.
        let summarized = try runBinary(["summarize", "latest", "--json"], environment: env)
        #expect(summarized.exitCode == 0, "\(summarized.stderr)")
        let summary = try #require(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(summarized.stdout.utf8)).summary)
        #expect(!summary.isEmpty)
        #expect(summary.lowercased().contains("young"))
        let shownAgain = try runBinary(["show", "latest", "--json"], environment: env)
        #expect(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(shownAgain.stdout.utf8)).summary == summary)
    }

    @Test("library commands on an empty library succeed with nothing to show, and an unknown id exits 1")
    func emptyLibrary() throws {
        let library = try TemporaryLibrary()
        let listed = try runBinary(["list", "--json"], environment: library.environment)
        #expect(listed.exitCode == 0)
        #expect(try JSONDecoder().decode([Recording].self, from: Data(listed.stdout.utf8)).isEmpty)
        let latest = library.run("show", "latest")
        #expect(latest.exitCode == 1)
        #expect(latest.stderr == "error: there are no recordings yet. Make one with 'livetranscriber record'.\n")
        #expect(library.run("show", "").exitCode == 64)
        let badURL = library.run("summarize", "x", "--engine", "openai", "--base-url", "not a url")
        #expect(badURL.exitCode == 64)
        #expect(badURL.stderr.hasPrefix("error: the base URL 'not a url' is not an http(s) URL"))
        let missing = try runBinary(["export", "nope", "--format", "srt"], environment: library.environment)
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n")
    }
}
