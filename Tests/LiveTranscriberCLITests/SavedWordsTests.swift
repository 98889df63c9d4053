import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// Issue 42: the saved transcript reads at least as well as whisper.cpp alone on the same file. One
/// test per kind of loss found by `make bench-quality` (BENCHMARKS.md, "Saved and live words against
/// the bare model, per file"), run as a user runs `import`, with the defaults (`--language auto`).
@Suite("The saved transcript keeps the words the model alone reads", .serialized)
struct SavedWordsTests {
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-"

    /// Imports `path` into a new library with the defaults; the saved recording and its transcript.
    static func imported(_ path: String) throws -> RecordingWithTranscript {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let result = try runBinary(["import", path], environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let shown = try runBinary(["show", "latest", "--json"], environment: environment)
        return try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
    }

    @Test("whispered English 30 dB down is saved in English, as whisper.cpp alone reads it (its first 2.5 s, identified as heard, were French at 55%, and the French decode saved no words)")
    func quietWhisperIsIdentifiedAsItIsDecoded() throws {
        let work = try TestFolders.make("lt-saved-words")
        let whispered = work.appendingPathComponent("whispered.wav").path
        let quiet = work.appendingPathComponent("whispered-quiet.wav").path
        try ExternalTool.run("/usr/bin/espeak-ng", ["-v", "en+whisper", "-w", whispered,
                                              "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them"])
        try ExternalTool.run("/usr/bin/sox", ["-R", whispered, quiet, "rate", "16000", "gain", "-30"])
        let saved = try Self.imported(quiet)
        let words = WordErrorRate.normalizedWords(saved.segments.map(\.text).joined(separator: " "))
        #expect(saved.recording.language == "en-US", "\(saved.recording.language) \(words)")
        for word in ["dashwood", "consider", "prudently", "power"] { #expect(words.contains(word), "\(words)") }
    }

    @Test("a file whose first speech is 1 s long and 40 s from the next is imported with both (import used to spin, waiting for 2.5 s of speech to identify its language)")
    func shortFirstSpeechFarFromTheNext() throws {
        let work = try TestFolders.make("lt-saved-words")
        let first = work.appendingPathComponent("first.wav").path
        let silence = work.appendingPathComponent("silence.wav").path
        let joined = work.appendingPathComponent("joined.wav").path
        try ExternalTool.run("/usr/bin/sox", [Self.librivox + "0880.wav", first, "trim", "0", "1.0"])
        try ExternalTool.run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silence, "trim", "0", "40"])
        try ExternalTool.run("/usr/bin/sox", [first, silence, Self.librivox + "0890.wav", joined])
        let saved = try Self.imported(joined)
        let words = WordErrorRate.normalizedWords(saved.segments.map(\.text).joined(separator: " "))
        #expect(Array(words.prefix(2)) == ["he", "was"], "\(words)")
        for word in ["unless", "rather", "selfish"] { #expect(words.contains(word), "\(words)") }
        #expect(saved.recording.language == "en-US")
    }
}
