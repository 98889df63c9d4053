import Foundation

/// What a recording recovered after a crash lacks, in words, so a transcript cut short is never silent.
///
/// A crash (`kill -9`, power loss) loses what the recognizer had not yet made final: the utterance
/// still open, and every utterance waiting for a decode when the recorder ran behind its audio
/// (`--speed max`, a busy machine). Recovery saves all the audio but only the segments already
/// journaled, so the audio after the transcript's end has none. The hint says so with the sentence
/// a stop that abandoned decodes prints (`UntranscribedAudio.note`), and how to get it
/// (`retranscribe`).
public enum RecoveryHint {
    /// Seconds of audio after the last segment's end that are the pause closing an utterance, not
    /// audio left without a transcript: the longest pause the voice activity detector waits for
    /// before a final (0.5 s, `VoiceActivitySegmenter.endSilenceSeconds`), with as much again
    /// for the last word's end and the file's last block. Recovery cannot tell speech from silence
    /// in the rest: it has no transcript either way, so it is named.
    public static let allowanceSeconds = 1.0

    /// The audio a recovered recording holds after its transcript's end: from the latest segment
    /// end (0 without segments) to `durationSeconds`; nil when that is `allowanceSeconds` or less.
    /// - Parameters:
    ///   - durationSeconds: The recovered audio's length, seconds.
    ///   - segments: The recovered transcript, in any order.
    public static func untranscribed(durationSeconds: Double, segments: [TranscriptSegment]) -> UntranscribedAudio? {
        let end = segments.map(\.endSeconds).filter(\.isFinite).max() ?? 0
        let tail = UntranscribedAudio(fromSeconds: max(0, end), toSeconds: durationSeconds)
        guard durationSeconds.isFinite, durationSeconds - tail.fromSeconds > allowanceSeconds else { return nil }
        return tail
    }

    /// The hint that follows "recovered … (0:11)".
    ///
    /// - Parameters:
    ///   - id: The recording's id, for the command to run.
    ///   - durationSeconds: The recovered audio's length, seconds.
    ///   - segments: The recovered transcript, in any order.
    /// - Returns: "; it has no transcript yet; run 'livetranscriber retranscribe ID'" without
    ///   segments; "; the last 0:04 of audio (from 0:07) has no transcript: the recording stopped
    ///   before it was transcribed; run 'livetranscriber retranscribe ID' to transcribe it all"
    ///   (`UntranscribedAudio.note`) when more than `allowanceSeconds` follow the transcript's
    ///   end; "" otherwise.
    public static func hint(id: String, durationSeconds: Double, segments: [TranscriptSegment]) -> String {
        guard segments.contains(where: { $0.endSeconds.isFinite }) else {
            return "; it has no transcript yet; run 'livetranscriber retranscribe \(id)'"
        }
        return untranscribed(durationSeconds: durationSeconds, segments: segments).map { "; " + $0.note(recordingID: id) } ?? ""
    }
}
