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
