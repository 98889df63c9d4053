import LiveTranscriberCore
import Testing

@Suite("Playback transcript")
struct PlaybackTranscriptTests {
    static let segments = [
        TranscriptSegment(text: "good morning all", startSeconds: 0.5, endSeconds: 2, words: [
            WordTiming(word: "good", startSeconds: 0.6, endSeconds: 0.9),
            WordTiming(word: " morning", startSeconds: 0.9, endSeconds: 1.4),
            WordTiming(word: "all", startSeconds: 1.5, endSeconds: 2),
        ]),
        TranscriptSegment(text: "no word times here", startSeconds: 3, endSeconds: 5),
        TranscriptSegment(text: "late words", startSeconds: 62.9, endSeconds: 65, words: [
            WordTiming(word: "late", startSeconds: 62.0, endSeconds: 63.5),
            WordTiming(word: "words", startSeconds: 63.5, endSeconds: 65),
        ]),
    ]
    let layout = PlaybackTranscript(segments)

    @Test("each row shows its time and its timed words, or its text when it has no word times")
    func rows() {
        #expect(layout.rows.map(\.time) == ["0:00", "0:03", "1:02"])
        #expect(layout.rows.map(\.start) == [0.5, 3, 62.9])
        #expect(layout.rows.map(\.words) == [["good", "morning", "all"], ["no word times here"], ["late", "words"]])
    }

    @Test("the highlight moves when a row starts and when each of its words starts; an early word counts from its row's start")
    func steps() {
        let expected: [PlaybackTranscript.Step] = [
            .init(start: 0.5, row: 0, word: nil), .init(start: 0.6, row: 0, word: 0), .init(start: 0.9, row: 0, word: 1),
            .init(start: 1.5, row: 0, word: 2), .init(start: 3, row: 1, word: nil), .init(start: 62.9, row: 2, word: 0),
            .init(start: 63.5, row: 2, word: 1),
        ]
        #expect(layout.steps == expected)
    }

    @Test("at a time, the row being played and its word being spoken; in a pause the last ones stay", arguments: [
        (0.0, nil as Int?, nil as Int?), (0.5, 0, nil), (0.7, 0, 0), (1.45, 0, 1), (2.5, 0, 2), (3.0, 1, nil),
        (62.95, 2, 0), (100, 2, 1), (-1, nil, nil), (Double.nan, nil, nil),
    ])
    func stepAt(seconds: Double, row: Int?, word: Int?) {
        let step = layout.step(at: seconds)
        #expect(step?.row == row)
        #expect(step?.word == word)
        // The row agrees with the rule the other front ends use.
        #expect(step?.row == TranscriptLines.playingIndex(at: seconds, in: Self.segments))
    }

    @Test("a word timed after the next row starts is never highlighted")
    func wordPastNextRow() {
        let layout = PlaybackTranscript([
            TranscriptSegment(text: "a b", startSeconds: 0, endSeconds: 2, words: [
                WordTiming(word: "a", startSeconds: 0, endSeconds: 1), WordTiming(word: "b", startSeconds: 2.5, endSeconds: 3),
            ]),
            TranscriptSegment(text: "c", startSeconds: 2, endSeconds: 3),
        ])
        #expect(layout.steps == [.init(start: 0, row: 0, word: 0), .init(start: 2, row: 1, word: nil)])
    }

    @Test("an empty transcript has no rows and nothing to highlight")
    func empty() {
        #expect(PlaybackTranscript([]).rows.isEmpty)
        #expect(PlaybackTranscript([]).step(at: 1) == nil)
    }
}
