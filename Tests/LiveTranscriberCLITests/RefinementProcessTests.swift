import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// `record`'s second pass with whisper (`TranscriptRefinement`): the saved audio transcribed again
/// as a file, that transcript saved, the live one kept as the previous transcript. Through the
/// built binary, with real whisper on the LibriVox sentences joined with no gap.
@Suite("record refines its transcript with a second pass over the saved audio", .serialized)
struct RefinementProcessTests {
    func saved(_ library: TemporaryLibrary) throws -> RecordingWithTranscript {
        let shown = library.run("show", "latest", "--json")
        return try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
    }

    func finals(inEventsAt path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(RecordingStreamEvent.self, from: Data($0.utf8)) }
            .filter { $0.type == .final }.map { $0.text ?? "" }
    }

    @Test("record saves the file path's transcript (\"ill-disposed\", as retranscribe reads it) and keeps the live finals as the previous one")
    func refinedTranscriptSavedLiveOneKept() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let (path, _) = try JoinedLibriVox.make()
        let events = try TestFolders.make("lt-refine").appendingPathComponent("events.jsonl").path
        let result = try runBinary(["record", "--input", path, "--speed", "max", "--name", "Fluent", "--events", events], environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let live = try finals(inEventsAt: events)
        let refined = try saved(library)
        let id = refined.recording.id
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(2)) == [
            "Saved \"Fluent\" as \(id): 0:24, \(Plural.count(live.count, "segment")).",
            "Refined the transcript: \(Plural.count(refined.segments.count, "segment")); the live one is kept "
                + "('livetranscriber retranscribe \(id) --restore' puts it back).",
        ])
        // Live, this sentence is decoded alone after a split and reads "ill-sposed" in most runs (BENCHMARKS.md);
        // the file path decodes it in a window with the sentences around it.
        let text = refined.segments.map(\.text).joined(separator: " ")
        #expect(text.contains("He was not an ill-disposed young man"), "\(text)")
        #expect(WordErrorRate.measure(reference: try JoinedLibriVox.make().sentences.joined(separator: " "), hypothesis: text).errors <= 1, "\(text)")

        // The live transcript is the previous one: restore puts back exactly the finals the event stream carried.
        #expect(library.run("retranscribe", id, "--restore").exitCode == 0)
        #expect(try saved(library).segments.map(\.text) == live)
        // The second pass is retranscribe's file path: transcribed again, the same segments, word times and all.
        let again = try runBinary(["retranscribe", id], environment: environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try saved(library).segments == refined.segments)
    }

    @Test("--no-refine saves the live finals and keeps no previous transcript")
    func noRefineKeepsLiveTranscript() throws {
        let library = try TemporaryLibrary()
        let (path, _) = try JoinedLibriVox.make()
        let events = try TestFolders.make("lt-refine").appendingPathComponent("events.jsonl").path
        let result = try runBinary(["record", "--input", path, "--speed", "max", "--no-refine", "--events", events],
                                   environment: WhisperCommandTests.defaultEnvironment(library))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("Refined") && !result.stderr.contains("refine"), "\(result.stdout)\(result.stderr)")
        let recording = try saved(library)
        #expect(recording.segments.map(\.text) == (try finals(inEventsAt: events)))
        #expect(library.run("retranscribe", recording.recording.id, "--restore").stderr
            == "error: '\(recording.recording.name)' has no previous transcript to restore.\n")
        #expect(library.run("record", "--input", path, "--no-refine", "--discard").stderr.contains("--no-refine has nothing to keep with --discard"))
    }

    @Test("Ctrl-C during the second pass keeps the live transcript, says how to refine it later and exits 0")
    func interruptKeepsLiveTranscript() throws {
        let library = try TemporaryLibrary()
        let (joined, _) = try JoinedLibriVox.make()
        let input = library.url.deletingLastPathComponent().appendingPathComponent("lt-refine-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: input) }
        let sox = try runBash("sox '\(joined)' '\(joined)' '\(joined)' '\(input)'", library: library, in: library.url)
        try #require(sox.exitCode == 0, "\(sox.stderr)")
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = ["record", "--input", input, "--speed", "max", "--name", "Stopped"]
        process.environment = ProcessInfo.processInfo.environment.merging(WhisperCommandTests.defaultEnvironment(library)) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // The recording is saved and the second pass (about 9 s of CPU for 74 s of audio) begins.
        let printed = readOutput(until: "segments.\n", in: stdout)
        try #require(printed.contains("Saved \"Stopped\""), "\(printed)")
        process.interrupt()
        let rest = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(errors)")
        #expect(rest.isEmpty)
        let recording = try saved(library)
        let id = recording.recording.id
        #expect(errors.hasSuffix("note: the transcript was not refined; the live one is saved. 'livetranscriber retranscribe \(id)' refines it.\n"), "\(errors)")
        // Saved as printed live: every final line, and no previous transcript.
        let shown = printed.split(separator: "\n").filter { $0.hasPrefix("[") }.map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(recording.segments.map(\.text) == shown)
        #expect(library.run("retranscribe", id, "--restore").exitCode == 1)
    }
}
