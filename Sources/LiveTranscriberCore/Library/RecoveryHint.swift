import Foundation

/// What a recording recovered after a crash lacks, in words, so a transcript cut short is never silent.
///
/// A recorder that runs faster than its recognizer (`--speed max`, a busy machine) can be killed
/// with minutes of audio written and not yet transcribed: recovery saves all the audio but only the
/// segments already final. The hint says how much audio after the transcript's end has none and
/// how to get it (`retranscribe`).
public enum RecoveryHint {
    /// Seconds of audio after the last segment that may be silence, not a gap: the longest
    /// utterance the whisper engine decodes at once (15 s).
    public static let allowanceSeconds = 15.0

    /// The hint that follows "recovered … (10:03)": empty when the transcript reaches to within
    /// `allowanceSeconds` of the end of the audio.
    ///
    /// - Parameters:
    ///   - id: The recording's id, for the command to run.
    ///   - durationSeconds: The recovered audio's length, seconds.
    ///   - segments: The recovered transcript, in any order.
    /// - Returns: "; it has no transcript yet; run 'livetranscriber retranscribe ID'" without
    ///   segments; "; its transcript ends at 0:36, and the 9:27 of audio after it have none (the
    ///   recorder stopped before transcribing them): run 'livetranscriber retranscribe ID' to
    ///   transcribe it all" when more than `allowanceSeconds` are missing; "" otherwise.
    public static func hint(id: String, durationSeconds: Double, segments: [TranscriptSegment]) -> String {
        guard let end = segments.map(\.endSeconds).filter(\.isFinite).max() else {
            return "; it has no transcript yet; run 'livetranscriber retranscribe \(id)'"
        }
        let missing = durationSeconds - end
        guard missing.isFinite, missing > allowanceSeconds else { return "" }
        return "; its transcript ends at \(ElapsedTimeFormat.clock(end)), and the \(ElapsedTimeFormat.clock(missing)) of audio "
            + "after it have none (the recorder stopped before transcribing them): run 'livetranscriber retranscribe \(id)' to transcribe it all"
    }
}
