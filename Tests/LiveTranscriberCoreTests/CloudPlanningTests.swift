import Foundation
import LiveTranscriberCore
import Testing

@Suite("Cloud planning: retries, upload pieces, text alignment")
struct CloudPlanningTests {
    @Test("retries 408, 429, 5xx and transport failures with exponential backoff; never 400, 401, 413", arguments: [
        (408, 1, nil, RetryPolicy.Decision.retry(afterSeconds: 1)),
        (429, 2, nil, .retry(afterSeconds: 2)),
        (500, 3, nil, .retry(afterSeconds: 4)),
        (503, 4, nil, .stop),
        (429, 1, "7", .retry(afterSeconds: 7)),
        (429, 1, "120", .retry(afterSeconds: 60)),
        (429, 1, "Wed, 21 Oct 2015 07:28:00 GMT", .retry(afterSeconds: 1)),
        (400, 1, nil, .stop),
        (401, 1, nil, .stop),
        (413, 1, nil, .stop),
        (404, 1, nil, .stop),
    ] as [(Int, Int, String?, RetryPolicy.Decision)])
    func retry(status: Int, attempt: Int, retryAfter: String?, expected: RetryPolicy.Decision) {
        #expect(RetryPolicy.openAI.decide(status: status, attempt: attempt, retryAfter: retryAfter) == expected)
    }

    @Test("a transport failure (no status) is retried")
    func transport() {
        #expect(RetryPolicy.openAI.decide(status: nil, attempt: 1) == .retry(afterSeconds: 1))
    }

    @Test("pieces stay under the byte limit, cover every frame, and prefer pauses")
    func pieces() {
        // 16 kHz mono: 2 bytes per frame; a 1,044-byte limit holds 500 frames.
        let pieces = UploadPlan.pieces(totalFrames: 1_400, channels: 1, sampleRate: 16_000,
                                       preferredCutSeconds: [0.02, 0.028, 0.05], maximumBytes: 1_044)
        #expect(pieces == [
            AudioPiece(startFrame: 0, frameCount: 448),
            AudioPiece(startFrame: 448, frameCount: 352),
            AudioPiece(startFrame: 800, frameCount: 500),
            AudioPiece(startFrame: 1_300, frameCount: 100),
        ])
    }

    @Test("stereo halves the frames per piece; an empty file has no pieces")
    func stereo() {
        #expect(UploadPlan.pieces(totalFrames: 600, channels: 2, sampleRate: 8_000, maximumBytes: 1_044).map(\.frameCount) == [250, 250, 100])
        #expect(UploadPlan.pieces(totalFrames: 0, channels: 1, sampleRate: 8_000).isEmpty)
        #expect(UploadPlan.maximumPieceBytes < 25_000_000)
    }

    @Test("content types follow the real format", arguments: [
        ("audio.wav", "audio/wav"), ("x.FLAC", "audio/flac"), ("a.ogg", "audio/ogg"), ("a.opus", "audio/ogg"),
        ("a.mp3", "audio/mpeg"), ("a.m4a", "audio/mp4"),
    ])
    func contentType(name: String, type: String) {
        #expect(AudioContentType.mediaType(forFileName: name) == type)
    }

    @Test("text without timestamps is laid over the local segments in proportion to their durations")
    func alignWords() {
        let local = [
            TranscriptSegment(text: "old a", startSeconds: 0, endSeconds: 1),
            TranscriptSegment(text: "old b", startSeconds: 1, endSeconds: 4),
        ]
        let aligned = TranscriptAligner.distribute("one two three four five six seven eight", over: local, fallbackSpan: (0, 4))
        #expect(aligned == [
            TranscriptSegment(text: "one two", startSeconds: 0, endSeconds: 1),
            TranscriptSegment(text: "three four five six seven eight", startSeconds: 1, endSeconds: 4),
        ])
    }

    @Test("Chinese text is distributed by characters, punctuation staying with its character")
    func alignChinese() {
        let local = [
            TranscriptSegment(text: "x", startSeconds: 0, endSeconds: 2),
            TranscriptSegment(text: "y", startSeconds: 2, endSeconds: 4),
        ]
        let aligned = TranscriptAligner.distribute("我们开会。讨论预算", over: local, fallbackSpan: (0, 4))
        #expect(aligned.map(\.text) == ["我们开会。", "讨论预算"])
    }

    @Test("with no local segments the text gets one segment over the fallback span")
    func alignFallback() {
        #expect(TranscriptAligner.distribute("hello world", over: [], fallbackSpan: (0, 9.5))
                == [TranscriptSegment(text: "hello world", startSeconds: 0, endSeconds: 9.5)])
        #expect(TranscriptAligner.distribute("  ", over: [], fallbackSpan: (0, 1)).isEmpty)
    }
}
