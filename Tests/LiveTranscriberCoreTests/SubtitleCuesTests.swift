import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Subtitle cues")
struct SubtitleCuesTests {
    /// A segment whose words follow one another, each `step` seconds long, from `start`.
    static func timed(_ text: String, from start: Double, step: Double, end: Double? = nil) -> TranscriptSegment {
        let words = text.split(separator: " ").enumerated().map { index, word in
            WordTiming(word: String(word), startSeconds: start + Double(index) * step,
                       endSeconds: start + Double(index + 1) * step)
        }
        return TranscriptSegment(text: text, startSeconds: start, endSeconds: end ?? words.last!.endSeconds, words: words)
    }

    static func numbered(_ prefix: String, _ count: Int) -> String {
        (1...count).map { prefix + ($0 < 10 ? "0" : "") + String($0) }.joined(separator: " ")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var segment: TranscriptSegment
        var layout: SubtitleLayout = .broadcast
        var cues: [SubtitleCue]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a segment that fits is one cue with its own times and line breaks",
             segment: TranscriptSegment(text: "第一行\n你好 --> 🎉", startSeconds: 1, endSeconds: 3),
             cues: [SubtitleCue(startSeconds: 1, endSeconds: 3, lines: ["第一行", "你好 -> 🎉"])]),
        Case(name: "24 words of 3 characters: 2 lines of 10 words, then the rest; cut at the word times",
             segment: timed(numbered("w", 24), from: 0, step: 0.25),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 5, lines: [numbered("w", 10), (11...20).map { "w\($0)" }.joined(separator: " ")]),
                SubtitleCue(startSeconds: 5, endSeconds: 6, lines: ["w21 w22 w23 w24"]),
             ]),
        Case(name: "short text lasting 8 s with word times: cut at 7 s",
             segment: timed("one two three four five six seven eight", from: 0, step: 1),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 7, lines: ["one two three four five six seven"]),
                SubtitleCue(startSeconds: 7, endSeconds: 8, lines: ["eight"]),
             ]),
        Case(name: "no word times: split by characters, timed by their share, no limit in seconds",
             segment: TranscriptSegment(text: numbered("segment", 10), startSeconds: 0, endSeconds: 99),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 80, lines: [
                    "segment01 segment02 segment03 segment04", "segment05 segment06 segment07 segment08"]),
                SubtitleCue(startSeconds: 80, endSeconds: 99, lines: ["segment09 segment10"]),
             ]),
        Case(name: "word times that do not spell the text are not used",
             segment: TranscriptSegment(text: numbered("segment", 10), startSeconds: 0, endSeconds: 99,
                                        words: [WordTiming(word: "segment01", startSeconds: 0, endSeconds: 1)]),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 80, lines: [
                    "segment01 segment02 segment03 segment04", "segment05 segment06 segment07 segment08"]),
                SubtitleCue(startSeconds: 80, endSeconds: 99, lines: ["segment09 segment10"]),
             ]),
        Case(name: "a word longer than a line is a line of its own, never cut",
             segment: timed("go " + String(repeating: "x", count: 50) + " now", from: 0, step: 1, end: 10),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 2, lines: ["go", String(repeating: "x", count: 50)]),
                SubtitleCue(startSeconds: 2, endSeconds: 9, lines: ["now"]),
             ]),
        Case(name: "silence before the words: the cue starts early only as far as 7 s allow",
             segment: timed("a b c d e", from: 4, step: 1).with(start: 0, end: 10),
             cues: [SubtitleCue(startSeconds: 2, endSeconds: 9, lines: ["a b c d e"])]),
        Case(name: "two lines balanced, not filled greedily",
             segment: timed("the quick brown fox jumps over the lazy dog and runs far away", from: 0, step: 0.2),
             cues: [SubtitleCue(startSeconds: 0, endSeconds: 2.6, lines: [
                "the quick brown fox jumps over", "the lazy dog and runs far away"])]),
        Case(name: "other limits: 16 characters, 1 line, 2 s",
             segment: timed("the quick brown fox jumps over the lazy dog", from: 0, step: 0.5),
             layout: SubtitleLayout(maximumLineCharacters: 16, maximumLines: 1, maximumCueSeconds: 2),
             cues: [
                SubtitleCue(startSeconds: 0, endSeconds: 1.5, lines: ["the quick brown"]),
                SubtitleCue(startSeconds: 1.5, endSeconds: 3, lines: ["fox jumps over"]),
                SubtitleCue(startSeconds: 3, endSeconds: 4.5, lines: ["the lazy dog"]),
             ]),
    ]

    static let shortCases: [(name: String, segments: [TranscriptSegment], cues: [SubtitleCue])] = [
        ("a segment at one instant at the end of the audio is shown for 1 s",
         [TranscriptSegment(text: "Yes.", startSeconds: 12.5, endSeconds: 12.5)],
         [SubtitleCue(startSeconds: 12.5, endSeconds: 13.5, lines: ["Yes."])]),
        ("a short cue is kept on screen into the pause, up to the next cue's start",
         [TranscriptSegment(text: "No.", startSeconds: 2, endSeconds: 2.2),
          TranscriptSegment(text: "Well then.", startSeconds: 2.6, endSeconds: 4)],
         [SubtitleCue(startSeconds: 2, endSeconds: 2.6, lines: ["No."]),
          SubtitleCue(startSeconds: 2.6, endSeconds: 4, lines: ["Well then."])]),
        ("an instant followed at once by the next cue is shown with it",
         [TranscriptSegment(text: "Oh", startSeconds: 3, endSeconds: 3),
          TranscriptSegment(text: "I see.", startSeconds: 3, endSeconds: 5)],
         [SubtitleCue(startSeconds: 3, endSeconds: 5, lines: ["Oh I see."])]),
    ]

    @Test("a cue too short to read is lengthened into the pause after it or joined to the next",
          arguments: shortCases.indices)
    func shortCues(_ index: Int) {
        let example = Self.shortCases[index]
        #expect(SubtitleCues.cues(example.segments) == example.cues, "\(example.name)")
    }

    @Test("the last cue is kept on screen no later than the end of the audio, never cut shorter than its words")
    func lastCueWithinTheAudio() {
        // 0.62 s of audio with one word ending at 0.5 s (a cut-off file): 0.62, not 1.5.
        let short = [TranscriptSegment(text: "Mr.", startSeconds: 0.5, endSeconds: 0.5)]
        #expect(SubtitleCues.cues(short, audioEndSeconds: 0.62) == [SubtitleCue(startSeconds: 0.5, endSeconds: 0.62, lines: ["Mr."])])
        #expect(SubtitleCues.cues(short) == [SubtitleCue(startSeconds: 0.5, endSeconds: 1.5, lines: ["Mr."])])
        // A segment stated past the end of the audio keeps its own end; one at the very end is shown for 1 s.
        let late = [TranscriptSegment(text: "Yes.", startSeconds: 2, endSeconds: 2.4)]
        #expect(SubtitleCues.cues(late, audioEndSeconds: 2.2) == [SubtitleCue(startSeconds: 2, endSeconds: 2.4, lines: ["Yes."])])
        #expect(SubtitleCues.cues(late, audioEndSeconds: 2) == [SubtitleCue(startSeconds: 2, endSeconds: 3, lines: ["Yes."])])
        #expect(SubtitleCues.cues(late, audioEndSeconds: 9) == [SubtitleCue(startSeconds: 2, endSeconds: 3, lines: ["Yes."])])
    }

    @Test("cues split at word boundaries within the layout", arguments: cases)
    func split(_ example: Case) {
        let cues = SubtitleCues.cues([example.segment], layout: example.layout)
        #expect(cues.count == example.cues.count)
        for (cue, expected) in zip(cues, example.cues) {
            #expect(cue.lines == expected.lines)
            #expect(abs(cue.startSeconds - expected.startSeconds) < 1e-9, "start \(cue.startSeconds)")
            #expect(abs(cue.endSeconds - expected.endSeconds) < 1e-9, "end \(cue.endSeconds)")
        }
    }

    @Test("random transcripts: every word once and in order, cues never overlap, within the limits")
    func invariants() {
        var random = SplitMix64(seed: 23)
        let vocabulary = ["a", "to", "the", "power", "disposed", "Sensibility,", "über", "né", "🎉", "-->",
                          "extraordinarily", "x", "it's", "well-respected."]
        for _ in 0..<300 {
            var segments: [TranscriptSegment] = []
            var time = Double(random.next() % 10)
            for _ in 0..<Int(random.next() % 4 + 1) {
                let count = Int(random.next() % 60 + 1)
                var words: [WordTiming] = []
                var wordTime = time
                for _ in 0..<count {
                    let length = Double(random.next() % 900) / 1000
                    let word = vocabulary[Int(random.next() % UInt64(vocabulary.count))]
                    words.append(WordTiming(word: word, startSeconds: wordTime, endSeconds: wordTime + length))
                    wordTime += length + Double(random.next() % 300) / 1000
                }
                let withTimes = random.next() % 3 != 0
                segments.append(TranscriptSegment(text: words.map(\.word).joined(separator: " "),
                                                  startSeconds: time, endSeconds: wordTime, words: withTimes ? words : []))
                time = wordTime + Double(random.next() % 2000) / 1000
            }
            let sanitized = SegmentSanitizer.sanitize(segments)
            let cues = SubtitleCues.cues(sanitized)
            let expectedWords = sanitized.flatMap { $0.text.split(separator: " ").map { $0 == "-->" ? "->" : String($0) } }
            #expect(cues.flatMap { $0.lines.flatMap { $0.split(separator: " ").map(String.init) } } == expectedWords)
            for (index, cue) in cues.enumerated() {
                #expect(cue.startSeconds <= cue.endSeconds)
                if index > 0 { #expect(cues[index - 1].endSeconds <= cue.startSeconds) }
                #expect(cue.lines.count <= 2)
                #expect(cue.lines.allSatisfy { $0.count <= 42 || !$0.contains(" ") })
                // Without word times the limit in seconds does not apply (no word lasts 7 s here).
                if sanitized.allSatisfy({ !$0.words.isEmpty }) { #expect(cue.endSeconds - cue.startSeconds <= 7 + 1e-9) }
            }
        }
    }
}

extension TranscriptSegment {
    func with(start: Double, end: Double) -> TranscriptSegment {
        var copy = self
        copy.startSeconds = start
        copy.endSeconds = end
        return copy
    }
}
