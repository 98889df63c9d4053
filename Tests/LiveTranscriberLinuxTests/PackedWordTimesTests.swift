import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// A file's utterances are decoded together in Whisper's whole window (`UtterancePacking`); their
/// words are timed by whisper.cpp's DTW onsets, which hold over a window of several segments.
@Suite("Word times of a file's packed decodes")
struct PackedWordTimesTests {
    static let librivox = WhisperHardInputTests.librivox

    /// `seconds` of silence, 16 kHz mono.
    static func silence(seconds: Double, name: String) throws -> String {
        let path = try MadeAudio.path(name)
        try MadeAudio.run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", path, "trim", "0", String(seconds)])
        return path
    }

    @Test("the installed model is loaded with DTW token onsets for files only; live recognition never gets that engine")
    func onsetsForFiles() throws {
        #expect(try WhisperEngine(tokenOnsets: true).hasTokenOnsets)
        #expect(try !WhisperEngine().hasTokenOnsets)
        // Loaded for files first, as serve's transcribe-again may: live recognition still loads its own.
        #expect(try LinuxSpeechEngines.whisperEngine(tokenOnsets: true).hasTokenOnsets)
        #expect(try !LinuxSpeechEngines.whisperEngine(tokenOnsets: false).hasTokenOnsets)
        #expect(try LinuxSpeechEngines.whisperEngine(tokenOnsets: true) !== LinuxSpeechEngines.whisperEngine(tokenOnsets: false))
    }

    /// Three sentences 0.3 s apart, 40 s of silence, a fourth: each sentence is one segment with all of
    /// its words and none of its neighbours', starting within 0.3 s of its voice (the sox-measured
    /// onset at -35 dB, 0.25 to 0.29 s into each file). Whisper's own token timestamps drift by up to
    /// 2 s over a whole window: "…to do for them. He" / "was not an ill-disposed young man.", and the
    /// sentence after the silence started 2 s early.
    @Test("each sentence of a file keeps its own words, and starts within 0.3 s of the voice, after 40 s of silence too")
    func sentencesKeepTheirWords() throws {
        let short = try Self.silence(seconds: 0.3, name: "gap-short.wav")
        let long = try Self.silence(seconds: 40, name: "gap-long.wav")
        let files = ["0870", "0880", "0930", "0890"].map { Self.librivox + $0 + ".wav" }
        let joined = try MadeAudio.sox([files[0], short, files[1], short, files[2], long, files[3]], [], name: "sentences.wav")
        let segments = try WhisperRecognitionTests.transcribe(SndFileReader(path: joined))
        #expect(segments.map(\.text) == [
            "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.",
            "He was not an ill-sposed young man.",
            "He might even have been made amiable himself.",
            "Unless to be rather cold-hearted and rather selfish is to be ill-disposed,",
        ], "\(segments.map(\.text))")
        // Where each sentence's file starts (the files last 7.10, 2.99 and 3.29 s), plus its onset.
        let starts = [0.25, 7.10 + 0.3 + 0.28, 7.10 + 0.3 + 2.99 + 0.3 + 0.29, 7.10 + 0.3 + 2.99 + 0.3 + 3.29 + 40 + 0.29]
        for (segment, start) in zip(segments, starts) {
            #expect(abs(segment.startSeconds - start) <= 0.3, "\(segment.text) starts at \(segment.startSeconds), voice at \(start)")
        }
    }
}
