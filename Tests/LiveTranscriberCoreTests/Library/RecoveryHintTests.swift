import Foundation
import LiveTranscriberCore
import Testing

@Suite("Recovery hint")
struct RecoveryHintTests {
    static func segment(_ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: "words", startSeconds: start, endSeconds: end)
    }

    @Test("the hint names the audio after the transcript's end when more than 15 s have none", arguments: [
        (603.0, [segment(30, 36.4), segment(0, 12)], "; its transcript ends at 0:36, and the 9:26 of audio after it have none "
            + "(the recorder stopped before transcribing them): run 'livetranscriber retranscribe r1' to transcribe it all"),
        (603.0, [], "; it has no transcript yet; run 'livetranscriber retranscribe r1'"),
        (51.0, [segment(1, 36)], ""),     // 15 s after the last segment: silence, no hint
        (51.5, [segment(1, 36)], "; its transcript ends at 0:36, and the 0:15 of audio after it have none "
            + "(the recorder stopped before transcribing them): run 'livetranscriber retranscribe r1' to transcribe it all"),
        (20.0, [segment(1, 25)], ""),     // a segment past the stated duration
    ] as [(Double, [TranscriptSegment], String)])
    func hint(duration: Double, segments: [TranscriptSegment], expected: String) {
        #expect(RecoveryHint.hint(id: "r1", durationSeconds: duration, segments: segments) == expected)
    }
}
