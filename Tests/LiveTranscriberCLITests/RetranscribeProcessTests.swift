import Foundation
import LiveTranscriberCore
import Testing

/// `retranscribe` through the built program, with real engines and a real library: `--restore`
/// gives back the earlier state, and a damaged transcript.json is rebuilt from the audio.
@Suite("retranscribe through the built program")
struct RetranscribeProcessTests {
    /// Records goforward.raw with pocketsphinx into `library` ("go forward ten meters", en-US).
    static func recordGoForward(_ library: TemporaryLibrary) throws -> String {
        let recorded = try runBinary(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--name", "Drive", "--json"],
                                     environment: library.environment)
        try #require(recorded.exitCode == 0, "\(recorded.stderr)")
        return try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(recorded.stdout.utf8)).recording.id
    }

    static func show(_ id: String, _ library: TemporaryLibrary) throws -> RecordingWithTranscript {
        let shown = try runBinary(["show", id, "--json"], environment: library.environment)
        try #require(shown.exitCode == 0, "\(shown.stderr)")
        return try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
    }

    @Test("--restore after --language gives back the earlier transcript and language; restoring again gives back the later ones")
    func restoreGivesBackTheLanguage() throws {
        let library = try TemporaryLibrary()
        let id = try Self.recordGoForward(library)
        let again = try runBinary(["retranscribe", id, "--engine", "whisper", "--language", "de", "--json"], environment: library.environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let german = try Self.show(id, library)
        #expect(german.recording.language == "de")

        let restored = try runBinary(["retranscribe", id, "--restore"], environment: library.environment)
        #expect(restored.exitCode == 0)
        #expect(restored.stdout == "Restored the previous transcript of 'Drive': 1 segment.\n")
        let back = try Self.show(id, library)
        #expect(back.recording.language == "en-US")
        #expect(back.segments.map(\.text) == ["go forward ten meters"])
        let listed = try runBinary(["list", "--json"], environment: library.environment)
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8)).map(\.language) == ["en-US"])

        let toggled = try runBinary(["retranscribe", id, "--restore", "--json"], environment: library.environment)
        #expect(toggled.exitCode == 0)
        let later = try Self.show(id, library)
        #expect(later.recording.language == "de")
        #expect(later.segments == german.segments)
    }

    @Test("a transcript.json that cannot be read is rebuilt from the audio; the damaged file is kept beside it")
    func damagedTranscriptIsRebuilt() throws {
        for reindexFirst in [true, false] {  // left out of the index as unreadable, or damaged after it was indexed
            let library = try TemporaryLibrary()
            let id = try Self.recordGoForward(library)
            let folder = library.url.appendingPathComponent("recordings/\(id)")
            try Data("{broken\n".utf8).write(to: folder.appendingPathComponent("transcript.json"))
            if reindexFirst {
                _ = try runBinary(["reindex"], environment: library.environment)
                let shown = try runBinary(["show", id], environment: library.environment)
                #expect(shown.exitCode == 1)
                #expect(shown.stderr == "error: the library file \(folder.path)/transcript.json is unreadable: The given data was not valid JSON. "
                    + "Recording \(id) exists, but list, search and other commands leave it out until the file is fixed or restored; "
                    + "then run 'livetranscriber reindex', or rebuild the transcript from the audio with 'livetranscriber retranscribe \(id)'\n")
            }

            let repaired = try runBinary(["retranscribe", id], environment: library.environment)
            #expect(repaired.exitCode == 0, "\(repaired.stderr)")
            #expect(repaired.stdout == "Re-transcribed 'Drive' with pocketsphinx: 1 segment.\n")
            #expect(repaired.stderr == "note: the transcript of \(id) could not be read (The given data was not valid JSON); "
                + "a new one was made from the audio, and the damaged file is kept in \(folder.path).\n")
            #expect(try Self.show(id, library).segments.map(\.text) == ["go forward ten meters"])
            #expect(try String(contentsOf: folder.appendingPathComponent("transcript.json.damaged"), encoding: .utf8) == "{broken\n")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("transcript.previous.json").path))
            let listed = try runBinary(["list"], environment: library.environment)
            #expect(listed.stderr == "")
            #expect(listed.stdout.contains("\(id)  "))
            let restore = try runBinary(["retranscribe", id, "--restore"], environment: library.environment)
            #expect(restore.exitCode == 1)
            #expect(restore.stderr == "error: 'Drive' has no previous transcript to restore.\n")
        }
    }

    @Test("--restore with a damaged transcript.json puts back the previous transcript and keeps the damaged file")
    func restoreOverDamagedTranscript() throws {
        let library = try TemporaryLibrary()
        let id = try Self.recordGoForward(library)
        let again = try runBinary(["retranscribe", id, "--engine", "whisper"], environment: library.environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let folder = library.url.appendingPathComponent("recordings/\(id)")
        try Data("{broken\n".utf8).write(to: folder.appendingPathComponent("transcript.json"))
        _ = try runBinary(["reindex"], environment: library.environment)

        let restored = try runBinary(["retranscribe", id, "--restore"], environment: library.environment)
        #expect(restored.exitCode == 0, "\(restored.stderr)")
        #expect(restored.stdout == "Restored the previous transcript of 'Drive': 1 segment.\n")
        #expect(restored.stderr == "note: the transcript of \(id) could not be read (The given data was not valid JSON); "
            + "the previous transcript was put back, and the damaged file is kept in \(folder.path).\n")
        #expect(try Self.show(id, library).segments.map(\.text) == ["go forward ten meters"])
        #expect(try String(contentsOf: folder.appendingPathComponent("transcript.json.damaged"), encoding: .utf8) == "{broken\n")
    }
}
