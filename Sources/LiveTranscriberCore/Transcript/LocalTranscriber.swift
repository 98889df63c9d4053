import Foundation

/// Transcribes a saved audio file on this machine, for `retranscribe --engine local`.
///
/// Implemented on Linux by the recognizer pipeline (decode, downmix, resample, recognize).
public protocol LocalTranscriber {
    /// The final segments of `audioFile`, in start order, times in seconds from the start of the file.
    ///
    /// - Parameters:
    ///   - audioFile: A WAV, FLAC or Ogg/Opus file.
    ///   - language: BCP 47 tag of the speech, such as "en-US".
    /// - Throws: When the file cannot be decoded or the language has no model.
    func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment]

    /// The transcript of `audioFile` and the language it is in.
    ///
    /// - Parameters:
    ///   - language: a BCP 47 tag, or "auto" to detect it on the first utterance (`LanguageLock`).
    ///   - vocabulary: terms the recognizer should expect (`Vocabulary`), already bounded.
    ///   - languageWarning: told the one line when the speech contradicts a named language.
    /// - Returns: the segments and the language to store (the detected one under "auto").
    /// Required of every transcriber, with no default: a default that kept the language given
    /// stored "auto" as a recording's language when a conformer's own method did not match.
    func transcript(of audioFile: URL, language: String, vocabulary: Vocabulary,
                    languageWarning: @escaping (String) -> Void) throws -> LocalTranscript
}

/// What `LocalTranscriber.transcript` gives: the final segments and their language.
public struct LocalTranscript: Sendable, Equatable {
    /// Final segments in start order, times in seconds from the start of the file.
    public var segments: [TranscriptSegment]
    /// BCP 47 tag of the transcript: the one named, or the one detected.
    public var language: String
    /// The recognizer's notes on how it was made (`SpeechRecognizer.notes`), for `Recording.notes`.
    public var notes: [String]

    public init(segments: [TranscriptSegment], language: String, notes: [String] = []) {
        self.segments = segments
        self.language = language
        self.notes = notes
    }
}
