import LiveTranscriberCore
import Testing

@Suite("Transcript lines")
struct TranscriptLinesTests {
    let segments = [
        TranscriptSegment(text: "first", startSeconds: 0.5, endSeconds: 2),
        TranscriptSegment(text: "second", startSeconds: 3, endSeconds: 5),
        TranscriptSegment(text: "third", startSeconds: 62.9, endSeconds: 65),
    ]

    @Test("the live list puts the interim line on top, then finals newest first with start times")
    func live() {
        var transcript = TranscriptAssembler()
        for segment in segments { _ = transcript.apply(.final(segment)) }
        _ = transcript.apply(.interim("and the"))
        let lines = TranscriptLines.live(transcript)
        #expect(lines.map(\.text) == ["and the", "third", "second", "first"])
        #expect(lines.map(\.timeText) == [nil, "1:02", "0:03", "0:00"])
        #expect(lines.map(\.id) == [-1, 2, 1, 0])
        #expect(lines.map(\.isInterim) == [true, false, false, false])
    }

    @Test("a blank interim line is not shown")
    func blankInterim() {
        var transcript = TranscriptAssembler()
        _ = transcript.apply(.interim("  "))
        #expect(TranscriptLines.live(transcript).isEmpty)
    }

    @Test("a saved transcript lists in start order with stable ids")
    func saved() {
        let lines = TranscriptLines.saved(segments)
        #expect(lines.map(\.id) == [0, 1, 2])
        #expect(lines.map(\.startSeconds) == [0.5, 3, 62.9])
        #expect(lines.map(\.speakerName) == [nil, nil, nil])
    }

    @Test("a saved line names its speaker at each turn only, with the user's name, and keeps the speaker's number on every line")
    func savedSpeakers() {
        let labelled = [
            TranscriptSegment(text: "Hello.", startSeconds: 0, endSeconds: 1, speaker: "S1"),
            TranscriptSegment(text: "Still me.", startSeconds: 1, endSeconds: 2, speaker: "S1"),
            TranscriptSegment(text: "My turn.", startSeconds: 2, endSeconds: 3, speaker: "S2"),
            TranscriptSegment(text: "Unknown.", startSeconds: 3, endSeconds: 4),
            TranscriptSegment(text: "Back.", startSeconds: 4, endSeconds: 5, speaker: "S1"),
        ]
        let lines = TranscriptLines.saved(labelled, speakers: [Speaker(id: "S1", name: "Anna")])
        #expect(lines.map(\.speakerName) == ["Anna", nil, "Speaker 2", nil, "Anna"])
        #expect(lines.map(\.voice) == [1, 1, 2, nil, 1])
    }

    @Test("a saved line names the language where it changes from the one before, as show does; none without the recording's language")
    func savedLanguages() {
        let mixed = [
            TranscriptSegment(text: "Good morning.", startSeconds: 0, endSeconds: 1),
            TranscriptSegment(text: "Guten Morgen.", startSeconds: 1, endSeconds: 2, language: "de"),
            TranscriptSegment(text: "Wie geht's?", startSeconds: 2, endSeconds: 3, language: "de"),
            TranscriptSegment(text: "Fine.", startSeconds: 3, endSeconds: 4),
        ]
        #expect(TranscriptLines.saved(mixed, recordingLanguage: "en-US").map(\.language) == [nil, "de", nil, "en-US"])
        #expect(TranscriptLines.saved(mixed).map(\.language) == [nil, nil, nil, nil])
        #expect(PlaybackTranscript(mixed, recordingLanguage: "en-US").rows.map(\.language) == [nil, "de", nil, "en-US"])
    }

    @Test("the segment being played is the last one started; a gap keeps the one just spoken", arguments: [
        (0.0, nil as Int?), (0.49, nil), (0.5, 0), (1.9, 0), (2.5, 0), (3.0, 1), (60, 1), (62.9, 2), (1_000, 2),
        (-1, nil), (Double.nan, nil),
    ])
    func playing(seconds: Double, index: Int?) {
        #expect(TranscriptLines.playingIndex(at: seconds, in: segments) == index)
    }

    @Test("nothing plays in an empty transcript")
    func empty() {
        #expect(TranscriptLines.playingIndex(at: 3, in: []) == nil)
    }

    @Test("tapping a line seeks to its start, never before 0")
    func seek() {
        #expect(TranscriptLines.seekSeconds(for: segments[2]) == 62.9)
        #expect(TranscriptLines.seekSeconds(for: TranscriptSegment(text: "x", startSeconds: -0.2, endSeconds: 1)) == 0)
    }
}
