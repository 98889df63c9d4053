import Foundation
import LiveTranscriberCore
import Testing

@Suite("Local agreement and overlaps at cuts")
struct LocalAgreementTests {
    @Test("the agreed words are the longest run of whole sentences both decodes share from the start, with more words after them")
    func agreedSentences() {
        #expect(LocalAgreement.agreedSentences(previous: ["One", "two.", "Three"], current: ["One", "two.", "Three", "four"]) == 2)
        #expect(LocalAgreement.agreedSentences(previous: ["A.", "B?", "C"], current: ["a.", "B?", "C", "d"]) == 2)
        // Nothing said after the sentence yet: it waits (a pause will end the utterance).
        #expect(LocalAgreement.agreedSentences(previous: ["One", "two."], current: ["One", "two."]) == nil)
        // The decodes disagree before the sentence end.
        #expect(LocalAgreement.agreedSentences(previous: ["One", "too."], current: ["One", "two.", "Three"]) == nil)
        // The earlier decode did not end the sentence there.
        #expect(LocalAgreement.agreedSentences(previous: ["One", "two,"], current: ["One", "two.", "Three"]) == nil)
        #expect(LocalAgreement.agreedSentences(previous: [], current: ["One.", "two"]) == nil)
        #expect(LocalAgreement.endsSentence("them.\u{201D}"))
        #expect(LocalAgreement.endsSentence("终于。"))
        #expect(!LocalAgreement.endsSentence("Mr"))
        // Abbreviations and initials are not sentence ends.
        for word in ["Mr.", "mrs.", "Dr.", "J.", "U.S.", "e.g."] { #expect(!LocalAgreement.endsSentence(word), "\(word)") }
        #expect(LocalAgreement.endsSentence("I."))
        #expect(LocalAgreement.agreedSentences(previous: ["And", "Mr.", "John"], current: ["And", "Mr.", "John", "Dashwood"]) == nil)
    }

    /// Words one after another from 0, each `seconds` long with `gap` between them (times exact in binary).
    static func spoken(_ text: String, seconds: Double = 0.5, gap: Double = 0.25) -> [WordTiming] {
        text.split(separator: " ").enumerated().map {
            let begin = Double($0.offset) * (seconds + gap)
            return WordTiming(word: String($0.element), startSeconds: begin, endSeconds: begin + seconds)
        }
    }

    @Test("with no agreed sentence end, a long sentence is split at an agreed clause end once the words before it span 2 s")
    func clauseSplit() {
        // 0.75 s a word: "woman," ends at 5 s.
        #expect(LocalAgreement.splitCount(previous: Self.spoken("Had he married a more amiable woman, he"),
                                          current: Self.spoken("Had he married a more amiable woman, he might have")) == 7)
        // The latest agreed clause end wins; a sentence end beats any clause end.
        #expect(LocalAgreement.splitCount(previous: Self.spoken("One two three four five, six seven, eight nine"),
                                          current: Self.spoken("One two three four five, six seven, eight nine ten")) == 7)
        #expect(LocalAgreement.splitCount(previous: Self.spoken("One. Two three four five six, seven"),
                                          current: Self.spoken("One. Two three four five six, seven eight")) == 1)
        // "three," ends at 2 s; a comma only one decode has is not agreed on; "two," (1.25 s) is too short to stand alone.
        #expect(LocalAgreement.splitCount(previous: Self.spoken("One two three, four"), current: Self.spoken("One two three, four five")) == 3)
        #expect(LocalAgreement.splitCount(previous: Self.spoken("One two three four"), current: Self.spoken("One two three, four five")) == nil)
        #expect(LocalAgreement.splitCount(previous: Self.spoken("One two, three"), current: Self.spoken("One two, three four")) == nil)
    }

    @Test("once the agreed words span 3 s with no punctuation, the split is at the widest gap between agreed words, the later of equal ones, at least 2 s in")
    func wordSplit() {
        // Half a second a word, no gaps, but 0.25 s after "two" and 0.5 s after "five" (which ends at 2.75 s).
        var words = Self.spoken("one two three four five six seven eight", gap: 0)
        for index in 2..<words.count { words[index].startSeconds += 0.25; words[index].endSeconds += 0.25 }
        for index in 5..<words.count { words[index].startSeconds += 0.5; words[index].endSeconds += 0.5 }
        #expect(LocalAgreement.splitCount(previous: Array(words.prefix(7)), current: words) == 5)
        // Equal gaps: the later one.
        let even = Self.spoken("one two three four five six seven eight nine ten")
        #expect(LocalAgreement.splitCount(previous: Array(even.prefix(9)), current: even) == 8)
        // Under 3 s of agreed words ("four" ends at 2.75 s): no split yet.
        #expect(LocalAgreement.splitCount(previous: Array(even.prefix(4)), current: Array(even.prefix(5))) == nil)
    }

    @Test("a boundary the two decodes time differently, or next to a word given no duration, is not split at")
    func unstableBoundary() {
        let current = Self.spoken("Had he married a more amiable woman, he might have")
        var shifted = Array(current.prefix(8))
        shifted[6].endSeconds += 0.3  // the previous decode ended "woman," 0.3 s later: the split moves to the boundary before it
        #expect(LocalAgreement.splitCount(previous: shifted, current: current) == 6)
        // Whisper now and then gives a run of words one time (here all from "amiable" on at 5 s):
        // no boundary next to them is used, so the split falls before them.
        var degenerate = current
        for index in 5..<degenerate.count { degenerate[index] = WordTiming(word: degenerate[index].word, startSeconds: 5, endSeconds: 5) }
        #expect(LocalAgreement.splitCount(previous: Array(degenerate.prefix(8)), current: degenerate) == 4)
    }

    static func words(_ spec: [(String, Double)]) -> [WordTiming] {
        spec.map { WordTiming(word: $0.0, startSeconds: $0.1, endSeconds: $0.1 + 0.3) }
    }

    @Test("words at the start of a segment that repeat the end of the one before at their shared cut are dropped")
    func overlapAtCut() {
        let previous = Self.words([("in", 8.6), ("his", 8.9), ("heart", 9.2), ("to", 9.5), ("do", 9.7)])
        // "to do" written again right at the cut (10.0 s).
        let next = Self.words([("to", 10.0), ("do", 10.2), ("for", 10.5), ("them.", 10.8)])
        #expect(CutOverlap.trimmed(previous: previous, next: next, cutSeconds: 10).map(\.word) == ["for", "them."])
        // Case and punctuation do not matter.
        let cased = Self.words([("Do,", 10.1), ("for", 10.5)])
        #expect(CutOverlap.trimmed(previous: previous, next: cased, cutSeconds: 10).map(\.word) == ["for"])
        // The same word said again later is speech, not a copy.
        let later = Self.words([("for", 10.1), ("do", 10.6)])
        #expect(CutOverlap.trimmed(previous: previous, next: later, cutSeconds: 10).map(\.word) == ["for", "do"])
        let repeatedLater = Self.words([("do", 10.5), ("it", 10.9)])
        #expect(CutOverlap.trimmed(previous: previous, next: repeatedLater, cutSeconds: 10).map(\.word) == ["do", "it"])
    }
}

@Suite("The guard against runaway repetition")
struct RepetitionGuardTests {
    /// Words one after another, each `seconds` long, from 0.
    static func words(_ text: String, seconds: Double = 0.4) -> [WordTiming] {
        text.split(separator: " ").enumerated().map {
            WordTiming(word: String($0.element), startSeconds: Double($0.offset) * seconds, endSeconds: Double($0.offset + 1) * seconds)
        }
    }

    @Test("a word looped far beyond the audio is cut to three copies; a phrase looped likewise")
    func loops() {
        // "80," fifteen times in 1.5 s: 0.1 s a copy, too short to have been said.
        var looped = Self.words("77, 78, 79,", seconds: 0.5)
        for copy in 0..<15 {
            let start = 1.5 + Double(copy) * 0.1
            looped.append(WordTiming(word: "80,", startSeconds: start, endSeconds: start + 0.1))
        }
        #expect(RepetitionGuard.trimmed(looped).map(\.word) == ["77,", "78,", "79,", "80,", "80,", "80,"])
        var phrase: [WordTiming] = []
        for copy in 0..<8 {
            let start = 2 + Double(copy) * 0.1
            phrase.append(WordTiming(word: "thank", startSeconds: start, endSeconds: start + 0.05))
            phrase.append(WordTiming(word: "you.", startSeconds: start + 0.05, endSeconds: start + 0.1))
        }
        #expect(RepetitionGuard.trimmed(Self.words("Well,") + phrase).map(\.word) == ["Well,", "thank", "you.", "thank", "you.", "thank", "you."])
    }

    @Test("repetition that has room in the audio is speech and is kept: six fillers said one by one, 'no, no, no, no'")
    func realRepetition() {
        let fillers = Self.words("um, um, um, um, um, um, so")
        #expect(RepetitionGuard.trimmed(fillers) == fillers)
        let nos = Self.words("no, no, no, no.")
        #expect(RepetitionGuard.trimmed(nos) == nos)
    }

    @Test("copies that pile up at the end of the audio are cut even when the run is long")
    func pileUp() {
        // Six copies over 3 s, but the last three crowded into its final 0.2 s.
        let times = [0.0, 1.0, 2.0, 2.8, 2.9, 2.95]
        let words = times.map { WordTiming(word: "yes", startSeconds: $0, endSeconds: min(3, $0 + 0.05)) }
        #expect(RepetitionGuard.trimmed(words).count == 3)
    }

    static let sentence = "the quick brown fox jumps over the lazy dog while the farmer sleeps in the afternoon sun."

    @Test("a sentence looped at the end of the audio is kept once: three and a half copies of 17 words, the last ones at the last sample")
    func longLoopAtEnd() {
        // "So," then the sentence said in 5.1 s (0.3 s a word), then two more copies and half of one, all zero-length at 5.5 s.
        let said = Self.words(Self.sentence, seconds: 0.3)
        #expect(said.count == 17)
        let loop = (Self.sentence + " " + Self.sentence + " the quick brown fox jumps over the lazy").split(separator: " ")
            .map { WordTiming(word: String($0), startSeconds: 5.5, endSeconds: 5.5) }
        #expect(RepetitionGuard.trimmed(Self.words("So,") + said.map {
            WordTiming(word: $0.word, startSeconds: $0.startSeconds + 0.4, endSeconds: $0.endSeconds + 0.4)
        } + loop).map(\.word) == ["So,"] + said.map(\.word))
    }

    @Test("a long phrase squeezed into too little audio is cut to one copy; the start of a squeezed further copy goes with it")
    func longLoopSqueezed() {
        // Five words said in 2 s, then two more copies and three words in 1 s: 0.077 s a word.
        let first = Self.words("I will see you tomorrow.", seconds: 0.4)
        let squeezed = Self.words("I will see you tomorrow. I will see you tomorrow. I will see", seconds: 1.0 / 13)
            .map { WordTiming(word: $0.word, startSeconds: $0.startSeconds + 2, endSeconds: $0.endSeconds + 2) }
        #expect(RepetitionGuard.trimmed(first + squeezed).map(\.word) == ["I", "will", "see", "you", "tomorrow."])
    }

    @Test("a long phrase said again with room in the audio is speech and is kept, and so are the words after it")
    func longRepetitionKept() {
        let twice = Self.words("I will see you tomorrow. I will see you tomorrow. I will go now.", seconds: 0.3)
        #expect(RepetitionGuard.trimmed(twice) == twice)
        #expect(RepetitionGuard.allowedRepeats(words: 4) == 3)
        #expect(RepetitionGuard.allowedRepeats(words: 5) == 1)
    }
}

@Suite("Words stamped past the end of the decoded audio")
struct DecodedWordsTests {
    @Test("words starting after the end of the audio are dropped; one stamped at its end is kept; an end past it is brought back to it")
    func withinAudio() {
        let words = [
            WordTiming(word: "one", startSeconds: 0.2, endSeconds: 0.6),
            WordTiming(word: "two", startSeconds: 1.9, endSeconds: 2.4),
            WordTiming(word: "three", startSeconds: 2.3, endSeconds: 2.3),
            WordTiming(word: "four", startSeconds: 2.31, endSeconds: 2.31),
            WordTiming(word: "five", startSeconds: 2.6, endSeconds: 2.6),
        ]
        #expect(DecodedWords.withinAudio(words, audioSeconds: 2.3) == [
            WordTiming(word: "one", startSeconds: 0.2, endSeconds: 0.6),
            WordTiming(word: "two", startSeconds: 1.9, endSeconds: 2.3),
            WordTiming(word: "three", startSeconds: 2.3, endSeconds: 2.3),
        ])
    }
}
