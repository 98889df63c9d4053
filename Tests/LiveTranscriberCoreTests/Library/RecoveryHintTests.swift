import Foundation
import LiveTranscriberCore
import Testing

@Suite("Recovery hint")
struct RecoveryHintTests {
    static func segment(_ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: "words", startSeconds: start, endSeconds: end)
    }

    @Test("the hint names the audio after the transcript's end, in the sentence a stop prints, when more than 1 s has none", arguments: [
        // Trial 5: `record` killed with -9 at 0:11, its last final ending at 0:07.
        (11.3, [segment(0.4, 3.1), segment(3.6, 7.2)], "; the last 0:04 of audio (from 0:07) has no transcript: the recording stopped "
            + "before it was transcribed; run 'livetranscriber retranscribe r1' to transcribe it all"),
        (603.0, [segment(30, 36.4), segment(0, 12)], "; the last 9:26 of audio (from 0:36) has no transcript: the recording stopped "
            + "before it was transcribed; run 'livetranscriber retranscribe r1' to transcribe it all"),
        (603.0, [], "; it has no transcript yet; run 'livetranscriber retranscribe r1'"),
        (37.0, [segment(1, 36)], ""),     // 1 s after the last segment: the pause that closed it, no hint
        (37.5, [segment(1, 36)], "; the last 0:01 of audio (from 0:36) has no transcript: the recording stopped "
            + "before it was transcribed; run 'livetranscriber retranscribe r1' to transcribe it all"),
        (20.0, [segment(1, 25)], ""),     // a segment past the stated duration
    ] as [(Double, [TranscriptSegment], String)])
    func hint(duration: Double, segments: [TranscriptSegment], expected: String) {
        #expect(RecoveryHint.hint(id: "r1", durationSeconds: duration, segments: segments) == expected)
    }

    @Test("the tail is the stop's UntranscribedAudio: from the latest end to the audio's end")
    func untranscribed() {
        #expect(RecoveryHint.untranscribed(durationSeconds: 11.3, segments: [Self.segment(3.6, 7.2), Self.segment(0.4, 3.1)])
                == UntranscribedAudio(fromSeconds: 7.2, toSeconds: 11.3))
        #expect(RecoveryHint.untranscribed(durationSeconds: 3, segments: []) == UntranscribedAudio(fromSeconds: 0, toSeconds: 3))
        #expect(RecoveryHint.untranscribed(durationSeconds: .nan, segments: []) == nil)
    }
}
