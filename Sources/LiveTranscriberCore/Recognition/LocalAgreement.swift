import Foundation

/// The local-agreement rule of streaming Whisper (whisper_streaming): words that two consecutive
/// decodes of the open utterance agree on, from its start, are stable. When the stable words end
/// a sentence and the newer decode already has words after it (the speaker went on), that sentence
/// can be final at once instead of waiting for a pause long enough to end the utterance.
public enum LocalAgreement {
    /// Characters that end a sentence when they end a word ("them.", "Why?", "终于。").
    public static let sentenceEnds: Set<Character> = [".", "?", "!", "。", "？", "！", "…"]

    /// How many leading words of `current` make up the longest run of whole sentences that
    /// `previous` agrees on and that more words follow in `current`; nil when there is none.
    /// Both decodes start at the same sample. Words agree when their text is the same after
    /// `comparable(_:)` and the sentence end's own punctuation is in both.
    /// - Parameters:
    ///   - previous: the words of the last decode of the open utterance.
    ///   - current: the words of the decode that just finished, of the same audio and more.
    public static func agreedSentences(previous: [String], current: [String]) -> Int? {
        var agreed: Int?
        for index in 0..<min(previous.count, current.count) {
            guard comparable(previous[index]) == comparable(current[index]) else { break }
            let endsSentence = endsSentence(previous[index]) && endsSentence(current[index])
            if endsSentence, index + 1 < current.count { agreed = index + 1 }
        }
        return agreed
    }

    /// Agreed words must span at least this many seconds, from the first word's start, before a
    /// split at a clause end or between words: no finals of a word or two.
    public static let shortestPhraseSeconds = 2.0
    /// A split between words with no punctuation waits until the agreed words span this many seconds.
    public static let longestUnsplitSeconds = 3.0
    /// At a clause end or between words, both decodes must place the boundary (the end of the word
    /// before it) within this many seconds of each other: Whisper's word times are rough, and now
    /// and then a decode gives many words one time, which must not choose where audio is cut.
    public static let boundaryToleranceSeconds = 0.25
    /// Characters that end a clause when they end a word ("woman,", "this;", "then:").
    public static let clauseEnds: Set<Character> = [",", ";", ":", "—", "–", "，", "、", "；", "："]

    /// How many leading words of `current` become a final now, the open utterance splitting after
    /// them; nil when none do. The words must be agreed on (`comparable(_:)`) by `previous` and be
    /// followed by more words in `current`. In order of preference:
    /// 1. the longest run of whole sentences (`agreedSentences(previous:current:)`), any length;
    /// 2. else the longest run ending at a clause end in both decodes;
    /// 3. else, once the agreed words span `longestUnsplitSeconds`, the run that ends at the widest
    ///    gap between two agreed words (the later of equal gaps).
    /// Rules 2 and 3 keep a long sentence from holding all its words until its end, so a word's final
    /// comes a few seconds after it was spoken even when the sentence runs on. Their runs span at
    /// least `shortestPhraseSeconds`, and their boundary is one both decodes time alike
    /// (`boundaryToleranceSeconds`, the words on both sides of it lasting more than zero seconds).
    /// - Parameters:
    ///   - previous: the words of the last decode of the open utterance, times in seconds from the
    ///     same origin as `current`'s.
    ///   - current: the words of the decode that just finished, of the same audio and more.
    public static func splitCount(previous: [WordTiming], current: [WordTiming]) -> Int? {
        if let sentences = agreedSentences(previous: previous.map(\.word), current: current.map(\.word)) { return sentences }
        let agreed = zip(previous, current).prefix { comparable($0.word) == comparable($1.word) }.count
        // Counts whose words are all agreed and that more words follow.
        let followed = min(agreed, current.count - 1)
        guard followed > 0 else { return nil }
        let start = current[0].startSeconds
        func usable(_ count: Int) -> Bool {
            let before = current[count - 1], after = current[count]
            return before.endSeconds - start >= shortestPhraseSeconds
                && before.endSeconds > before.startSeconds && after.endSeconds > after.startSeconds
                && abs(previous[count - 1].endSeconds - before.endSeconds) <= boundaryToleranceSeconds
        }
        if let clause = (1...followed).last(where: {
            endsClause(previous[$0 - 1].word) && endsClause(current[$0 - 1].word) && usable($0)
        }) {
            return clause
        }
        // Between words: both sides of the gap agreed, so the boundary itself is stable.
        guard agreed >= 2, current[agreed - 1].endSeconds - start >= longestUnsplitSeconds else { return nil }
        let counts = (1..<agreed).filter(usable)
        // In whole milliseconds, so gaps equal on the audio's clock are equal here too.
        func gap(_ count: Int) -> Int { Int(((current[count].startSeconds - current[count - 1].endSeconds) * 1000).rounded()) }
        guard let widest = counts.map(gap).max() else { return nil }
        return counts.last { gap($0) == widest }
    }

    /// True when `word` ends with clause punctuation (`clauseEnds`), a closing quote or bracket after it allowed.
    public static func endsClause(_ word: String) -> Bool {
        let trimmed = word.reversed().drop { "\"'”’)]»".contains($0) }.reversed()
        return trimmed.last.map(clauseEnds.contains) ?? false
    }

    /// Words whose full stop marks an abbreviation, not a sentence end (lowercased, without the stop).
    public static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "rev", "gen", "col", "capt", "lt", "sgt", "hon",
        "vs", "etc", "no", "vol", "fig", "approx", "dept", "inc", "ltd", "co", "corp", "mt", "ft",
    ]

    /// True when `word` ends with sentence punctuation (a closing quote or bracket after it allowed)
    /// and is not an abbreviation: "Mr.", an initial such as "J.", or a word with a stop inside ("U.S.", "e.g.").
    public static func endsSentence(_ word: String) -> Bool {
        let trimmed = word.reversed().drop { "\"'”’)]»".contains($0) }.reversed()
        guard let last = trimmed.last, sentenceEnds.contains(last) else { return false }
        if last == "." {
            let body = String(trimmed.dropLast())
            if body.contains(".") || abbreviations.contains(body.lowercased()) { return false }
            if body.count == 1, body != "I", body.first?.isUppercase == true { return false }
        }
        return true
    }

    /// A word as compared across decodes and cuts: lowercased letters and digits only, so
    /// "Them," and "them." are the same word.
    public static func comparable(_ word: String) -> String {
        String(word.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}

/// Where two consecutive segments of one stretch of speech meet (a split at a sentence end or a
/// forced cut), Whisper may write the words around the cut in both: at the end of the first
/// (it heard part of them) and again at the start of the second. The second segment's copy lies
/// right at the cut, so its word times tell it apart from a real repetition further on.
public enum CutOverlap {
    /// The longest run of words looked for.
    public static let longestRun = 4
    /// A repeated run counts as a copy when its last word starts within this many seconds after the cut.
    public static let nearCutSeconds = 0.4

    /// `next` without its leading words that repeat the last words of `previous` (compared with
    /// `LocalAgreement.comparable`) when those leading words lie at the cut: the last of them
    /// starts less than `nearCutSeconds` after `cutSeconds`. Times are seconds from the start of the stream.
    /// - Parameters:
    ///   - previous: the words of the segment that ended at the cut.
    ///   - next: the words of the segment that starts at the cut.
    ///   - cutSeconds: where one ends and the other starts.
    public static func trimmed(previous: [WordTiming], next: [WordTiming], cutSeconds: Double) -> [WordTiming] {
        let longest = min(longestRun, previous.count, next.count)
        guard longest > 0 else { return next }
        for run in stride(from: longest, through: 1, by: -1) {
            let tail = previous.suffix(run).map { LocalAgreement.comparable($0.word) }
            let head = next.prefix(run).map { LocalAgreement.comparable($0.word) }
            guard tail == head, !head.allSatisfy(\.isEmpty), next[run - 1].startSeconds < cutSeconds + nearCutSeconds else { continue }
            return Array(next.dropFirst(run))
        }
        return next
    }
}
