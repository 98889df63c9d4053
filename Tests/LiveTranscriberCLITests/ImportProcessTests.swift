import Foundation
import LiveTranscriberCore
import Testing

/// `import` as a real process, stopped by SIGTERM part-way through its files.
@Suite("import stopped by signals")
struct ImportProcessTests {
    @Test("SIGTERM during import: the file in progress leaves nothing, the one already imported stays, exit 143")
    func terminateDiscardsTheFileInProgress() throws {
        let library = try TemporaryLibrary()
        let short = library.url.appendingPathComponent("short.wav")
        try WAVBytes.make(samples: goForwardSamples(), rate: 16_000, channels: 1, encoding: .pcm16).write(to: short)
        // About 4 minutes of speech: goforward.raw and a second of silence, 60 times.
        let long = library.url.appendingPathComponent("long.wav")
        let speech = try goForwardSamples() + [Float](repeating: 0, count: 16_000)
        try WAVBytes.make(samples: Array([[Float]](repeating: speech, count: 60).joined()), rate: 16_000, channels: 1,
                          encoding: .pcm16).write(to: long)

        let (process, output, errors) = try startBinary(["import", short.path, long.path], library: library)
        // The first file's line is printed once it is saved; the second is then being imported.
        let seen = readOutput(until: "\n", in: output)
        try #require(seen.hasPrefix("Imported \(short.path) as "), "import printed: \(seen)")
        process.terminate()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 143)
        #expect(stderr == "Import stopped: 1 imported, 1 not imported.\n")
        // Nothing half-written: one recording, no draft (not even a hidden one being removed), nothing in the trash.
        let drafts = try FileManager.default.contentsOfDirectory(atPath: library.url.appendingPathComponent("drafts").path)
        let trash = try FileManager.default.contentsOfDirectory(atPath: library.url.appendingPathComponent("trash").path)
        #expect(drafts == [])
        #expect(trash == [])
        #expect(library.recordingFolders.count == 1)
        let listed = library.run("list", "--json")
        #expect(listed.stderr == "")  // no draft was left to recover
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8))
        #expect(recordings.map(\.name) == ["short"])
        #expect(recordings.map(\.recovered) == [false])
    }
}
