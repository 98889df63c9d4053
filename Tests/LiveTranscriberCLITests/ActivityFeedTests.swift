import Foundation
import LiveTranscriberCore
import Testing

@Suite("record --activity-feed")
struct ActivityFeedTests {
    /// Two utterances of real speech with a second of silence between them.
    func twoUtterances(in library: TemporaryLibrary) throws -> String {
        let speech = try goForwardSamples()
        let path = library.url.appendingPathComponent("two.wav")
        try WAVBytes.make(samples: speech + [Float](repeating: 0, count: 16_000) + speech, rate: 16_000, channels: 1,
                          encoding: .pcm16).write(to: path)
        return path.path
    }

    @Test("a real recording gives exactly one start, one update per final segment, one stop update and one end")
    func sequence() throws {
        let library = try TemporaryLibrary()
        let input = try twoUtterances(in: library)
        let result = library.run("record", "--input", input, "--speed", "max", "--name", "Feed", "--activity-feed", "-")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.map { $0["action"] as? String } == ["start", "update", "update", "update", "end"])
        let states = lines.map { $0["contentState"] as? [String: Any] ?? [:] }
        #expect(states.map { $0["segmentCount"] as? Int } == [0, 1, 2, 2, 2])
        #expect(states.map { $0["status"] as? String } == ["recording", "recording", "recording", "stopped", "stopped"])
        #expect(states[2]["transcript"] as? String == "go forward ten meters\ngo forward ten meters")
        #expect(states[3]["elapsedSeconds"] as? Double == 6)
        // Timestamps follow the recording's timeline and never go backwards.
        let stamps = lines.compactMap { $0["timestamp"] as? String }
        #expect(stamps == stamps.sorted())
        #expect((lines[0]["attributes"] as? [String: Any])?["name"] as? String == "Feed")
        // The closing line went to stderr: stdout is JSON Lines only.
        #expect(result.stderr.contains("Saved \"Feed\""))
    }

    @Test("a feed into a FIFO is written through, never replaced; a feed that fails is reported after the save")
    func feedIntoSpecialFiles() throws {
        let library = try TemporaryLibrary()
        let elsewhere = try TemporaryLibrary()  // outside the library: writing into it is refused
        let fifo = elsewhere.url.appendingPathComponent("feed.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = FIFOReader(path: fifo)
        let result = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--activity-feed", fifo)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = String(decoding: received.wait(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4)  // start, one final, the stop update, end
        #expect((try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType) != .typeRegular)

        let full = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--activity-feed", "/dev/full")
        #expect(full.exitCode == 1)
        #expect(full.stderr == "error: could not write the activity feed to /dev/full: No space left on device; the recording was saved\n")
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType) == .typeCharacterSpecial)
        #expect(library.recordingFolders.count == 2)
    }

    @Test("a feed file that cannot be created fails before anything is recorded")
    func unwritableFeed() throws {
        let library = try TemporaryLibrary()
        let result = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max",
                                 "--activity-feed", "/nonexistent-folder/feed.jsonl")
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: cannot write the activity feed to /nonexistent-folder/feed.jsonl: the folder /nonexistent-folder does not exist\n")
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }
}

/// Reads a FIFO to its end on another thread, as a separate reader process would.
final class FIFOReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        DispatchQueue.global().async {
            if let handle = FileHandle(forReadingAtPath: path) {
                self.data = handle.readDataToEndOfFile()
            }
            self.done.signal()
        }
    }

    /// Everything read, once the writer has closed the FIFO.
    func wait() -> Data {
        done.wait()
        return data
    }
}
