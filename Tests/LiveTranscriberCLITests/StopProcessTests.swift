import Foundation
import LiveTranscriberCore
import Testing

/// Stopping `record` and `import` while whisper decodes behind the audio (issue 23 item 8): the
/// stop does not wait for the decoder to catch up. Through the built binary; how long the stop
/// takes is measured in BENCHMARKS.md, not here.
@Suite("stopping while whisper is behind", .serialized)
struct StopProcessTests {
    /// Two minutes of LibriVox speech (the five sentences, five times), made with sox.
    func longSpeech(in library: TemporaryLibrary) throws -> String {
        let run = try runBash("sox /usr/share/pocketsphinx/test/data/librivox/*.wav all.wav && sox all.wav long.wav repeat 4", library: library, in: library.url)
        try #require(run.exitCode == 0, "\(run.stderr)")
        return library.url.appendingPathComponent("long.wav").path
    }

    /// Starts the built binary with whisper as the engine.
    func start(_ arguments: [String], library: TemporaryLibrary) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
            .merging(["LIVETRANSCRIBER_ENGINE": "whisper", "TZ": "UTC"]) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, stdout, stderr)
    }

    @Test("SIGTERM to record --speed max: saved with all the audio read and the finals decoded; one note names the rest and retranscribe; exit 0")
    func recordSavesWhatWasDecoded() throws {
        let library = try TemporaryLibrary()
        let input = try longSpeech(in: library)
        let (process, stdout, stderr) = try start(["record", "--input", input, "--speed", "max", "--name", "Stopped"], library: library)
        // The first final is out: the file is then read up to 30 s ahead of the decoder.
        let first = readOutput(until: "\n", in: stdout)
        try #require(first.hasPrefix("[0:00] "), "record printed: \(first)")
        process.terminate()
        let rest = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)

        let shown = library.run("show", "latest", "--json")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
        let id = saved.recording.id
        let lines = (first + rest).split(separator: "\n").map(String.init)
        #expect(lines.last == "Saved \"Stopped\" as \(id): \(ElapsedTimeFormat.clock(saved.recording.durationSeconds)), "
            + "\(Plural.count(saved.segments.count, "segment")).")
        #expect(lines.count == saved.segments.count + 1)  // every final printed is saved, no other
        // The note: from where the transcript stops to the end of the audio saved (each clock rounded down).
        let note = try #require(errors.split(separator: "\n").map(String.init).first { $0.hasPrefix("note: the last ") }, "\(errors)")
        let lastText = try #require(note.firstRange(of: "the last ").map { note[$0.upperBound...].prefix { $0 != " " } })
        let fromText = try #require(note.firstRange(of: "(from ").map { note[$0.upperBound...].prefix { $0 != ")" } })
        #expect(note == "note: the last \(lastText) of audio (from \(fromText)) has no transcript: the recording stopped before it "
            + "was transcribed; run 'livetranscriber retranscribe \(id)' to transcribe it all")
        #expect(abs(Self.seconds(lastText) + Self.seconds(fromText) - saved.recording.durationSeconds) < 2, "\(note) for \(saved.recording.durationSeconds) s")
        // All the audio read is kept: more than the transcript covers, at most the input's 123.65 s.
        let lastEnd = saved.segments.map(\.endSeconds).max() ?? 0
        #expect(saved.recording.durationSeconds > lastEnd)
        #expect(Self.seconds(fromText) >= lastEnd.rounded(.down))
        #expect(saved.recording.durationSeconds < 123.65)
        #expect(library.draftFolders.isEmpty)
    }

    @Test("SIGINT to import while whisper decodes: nothing is saved, no draft is left, exit 130")
    func importLeavesNothing() throws {
        let library = try TemporaryLibrary()
        let input = try longSpeech(in: library)
        let (process, _, stderr) = try start(["import", input], library: library)
        // A final was journaled: the import is under way, the decoder behind the reader.
        let drafts = library.url.appendingPathComponent("drafts")
        while process.isRunning {
            let journals = ((try? FileManager.default.contentsOfDirectory(atPath: drafts.path)) ?? []).map {
                drafts.appendingPathComponent($0).appendingPathComponent("journal.jsonl")
            }
            if journals.contains(where: { ((try? Data(contentsOf: $0)) ?? Data()).contains(UInt8(ascii: "\n")) }) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGINT)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(errors == "Import stopped: 0 imported, 1 not imported.\n")
        #expect(library.recordingFolders.isEmpty)
        #expect(library.draftFolders.isEmpty)
    }

    /// "1:02" as seconds.
    static func seconds(_ clock: Substring) -> Double {
        clock.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? 0) }
    }
}
