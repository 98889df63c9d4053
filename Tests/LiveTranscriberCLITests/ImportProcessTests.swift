import Foundation
import LiveTranscriberCore
import Testing

/// `import` as a real process: stopped by SIGTERM part-way through its files, and run three times at once.
@Suite("import as a process")
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

    @Test("three imports of the same file started at once into a new library save it once; the other two say it is already there, exit 0")
    func concurrentImportsOfOneFile() throws {
        let library = try TemporaryLibrary()
        let audio = library.url.appendingPathComponent("same.wav")
        try WAVBytes.make(samples: goForwardSamples(), rate: 16_000, channels: 1, encoding: .pcm16).write(to: audio)
        let started = try (0..<3).map { _ in try startBinary(["import", audio.path], library: library) }
        var imported: [String] = []
        var notes: [String] = []
        for (process, output, errors) in started {
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
            imported += stdout.split(separator: "\n").map(String.init)
            notes += stderr.split(separator: "\n").map(String.init)
        }
        #expect(library.recordingFolders.count == 1)
        let id = try #require(library.recordingFolders.first)
        #expect(imported == ["Imported \(audio.path) as \(id): 0:02, 1 segment."])
        let skipped = "note: skipped \(audio.path): it is already in the library as \(id) 'same'; add --again to import it once more."
        let summary = "1 of 1 file skipped (already in the library)."
        #expect(notes == [skipped, summary, skipped, summary])
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.url.appendingPathComponent("drafts").path) == [])
    }
}
