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
}
