import LiveTranscriberCore
import Testing

@Suite("Transcript assembly")
struct TranscriptAssemblerTests {
    @Test("interim text turning final never duplicates text")
    func interimThenFinal() {
        var assembler = TranscriptAssembler()
        #expect(assembler.apply(.interim("can you double check")) == .interimChanged)
        #expect(assembler.apply(.interim("can you double check the numbers")) == .interimChanged)
        #expect(assembler.text == "can you double check the numbers")
        let final = TranscriptSegment(text: "can you double-check the numbers in the spreadsheet", startSeconds: 0.4, endSeconds: 3.2)
        #expect(assembler.apply(.final(final)) == .finalAdded(index: 0))
        #expect(assembler.interim == nil)
        #expect(assembler.text == "can you double-check the numbers in the spreadsheet")
        #expect(assembler.text.components(separatedBy: "the numbers").count == 2)
    }

    @Test("a repeated or blank interim changes nothing; a blank interim clears the line")
    func interimReplaced() {
        var assembler = TranscriptAssembler()
        _ = assembler.apply(.interim("hello"))
        #expect(assembler.apply(.interim("hello")) == .none)
        #expect(assembler.apply(.interim("  ")) == .interimChanged)
        #expect(assembler.interim == nil)
    }

    @Test("finals are kept in start order even when one arrives late")
    func finalsOrdered() {
        var assembler = TranscriptAssembler()
        _ = assembler.apply(.final(TranscriptSegment(text: "b", startSeconds: 5, endSeconds: 6)))
        _ = assembler.apply(.final(TranscriptSegment(text: "c", startSeconds: 8, endSeconds: 9)))
        #expect(assembler.apply(.final(TranscriptSegment(text: "a", startSeconds: 1, endSeconds: 2))) == .finalAdded(index: 0))
        #expect(assembler.finals.map(\.text) == ["a", "b", "c"])
    }

    @Test("times never go backwards: negative, reversed and non-finite times are made sane")
    func saneTimes() {
        var assembler = TranscriptAssembler()
        _ = assembler.apply(.final(TranscriptSegment(text: "x", startSeconds: -1, endSeconds: .nan)))
        _ = assembler.apply(.final(TranscriptSegment(text: "y", startSeconds: 4, endSeconds: 3,
                                                    words: [WordTiming(word: "y", startSeconds: 2, endSeconds: 9)])))
        #expect(assembler.finals[0].startSeconds == 0 && assembler.finals[0].endSeconds == 0)
        #expect(assembler.finals[1].startSeconds == 4 && assembler.finals[1].endSeconds == 4)
        #expect(assembler.finals[1].words == [WordTiming(word: "y", startSeconds: 4, endSeconds: 4)])
    }

    @Test("an empty final from a false trigger is dropped and clears the interim line")
    func emptyFinal() {
        var assembler = TranscriptAssembler()
        _ = assembler.apply(.interim("uh"))
        #expect(assembler.apply(.final(TranscriptSegment(text: " ", startSeconds: 1, endSeconds: 2))) == .interimChanged)
        #expect(assembler.finals.isEmpty && assembler.interim == nil)
    }
}

@Suite("Word error rate")
struct WordErrorRateTests {
    @Test("counts substitutions, deletions and insertions over reference words", arguments: [
        ("go forward ten meters", "go forward ten meters", 0, 4),
        ("go forward ten meters", "go forward two meters", 1, 4),
        ("go forward ten meters", "go ten meters", 1, 4),
        ("go forward ten meters", "go go forward ten meters now", 2, 4),
        ("<s> He was NOT an ill-disposed man. </s>", "he was not an ill disposed man", 0, 7),
        ("and mister john dashwood walked ten miles", "And Mr. John Dashwood walked 10 miles.", 0, 7),
        ("", "", 0, 0),
    ])
    func measure(reference: String, hypothesis: String, errors: Int, words: Int) {
        #expect(WordErrorRate.measure(reference: reference, hypothesis: hypothesis) == WordErrorRate(errors: errors, referenceWords: words))
    }
}
