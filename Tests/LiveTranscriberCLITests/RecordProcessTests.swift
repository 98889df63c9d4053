import Foundation
import LiveTranscriberCore
import Testing

/// `record` as a real process, stopped by signals while it plays a file in real time.
@Suite("record stopped by signals")
struct RecordProcessTests {
    /// goforward.raw, a second of silence, goforward.raw again, then 6 s of silence: about 12.6 s.
    func slowInput(in library: TemporaryLibrary) throws -> String {
        let speech = try goForwardSamples()
        let path = library.url.appendingPathComponent("slow.wav")
        try WAVBytes.make(samples: speech + [Float](repeating: 0, count: 16_000) + speech + [Float](repeating: 0, count: 96_000),
                          rate: 16_000, channels: 1, encoding: .pcm16).write(to: path)
        return path.path
    }

    /// Starts `record` on `input` in real time and returns once its first final line is out.
    func startRecording(_ input: String, library: TemporaryLibrary) throws -> (Process, Pipe, Date) {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = ["record", "--input", input, "--name", "Interrupted"]
        process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let seen = readOutput(until: "go forward ten meters\n", in: output)
        try #require(seen.hasPrefix("[0:00] go forward ten meters\n"), "record printed: \(seen)")
        return (process, output, started)
    }

    @Test("kill -9 during record: the next command recovers the draft with its final segments and all but the last second of audio")
    func killedRecordIsRecovered() throws {
        let library = try TemporaryLibrary()
        let (process, _, started) = try startRecording(try slowInput(in: library), library: library)
        Thread.sleep(forTimeInterval: 1.5)
        let killedAfter = Date().timeIntervalSince(started)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(library.recordingFolders.isEmpty)
        #expect(library.draftFolders.count == 1)

        let listed = library.run("show", "latest", "--json")
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        #expect(listed.stderr.hasPrefix("note: recovered an interrupted recording: "))
        let recovered = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(listed.stdout.utf8))
        #expect(recovered.recording.recovered)
        #expect(recovered.recording.name == "Interrupted")
        #expect(recovered.segments.first?.text == "go forward ten meters")
        // Audio up to the kill, less at most a second (the header is rewritten every 0.5 s);
        // the wall time includes the process start, so it bounds the audio from above.
        let duration = recovered.recording.durationSeconds
        #expect(duration <= killedAfter)
        #expect(duration >= 2.786 + 1.5 - 1.0, "recovered \(duration) s of \(killedAfter) s")
        #expect(library.draftFolders.isEmpty)
    }

    @Test("SIGTERM during record stops and saves, like q and Ctrl-C")
    func terminateSaves() throws {
        let library = try TemporaryLibrary()
        let (process, output, _) = try startRecording(try slowInput(in: library), library: library)
        process.terminate()
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(rest.contains("Saved \"Interrupted\" as "))
        let listed = library.run("list", "--json")
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8))
        #expect(recordings.count == 1)
        #expect(recordings.first?.recovered == false)
        #expect((recordings.first?.durationSeconds ?? 99) < 12)
    }
}
