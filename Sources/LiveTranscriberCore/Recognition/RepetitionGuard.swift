import Foundation

/// A guard against runaway repetition: a decoder stuck in a loop writes one word or phrase over
/// and over ("80, 80, 80, …", "um, um, um, …", or a whole sentence three and a half times) far
/// beyond what was said. Whisper's own defence, temperature fallback when a decode's text
/// compresses too well (whisper.cpp's entropy threshold), is asked for on final decodes; this rule
/// cuts what gets through, on every decode.
///
/// A run is the same phrase, of any length (compared with `LocalAgreement.comparable`), repeated
/// back to back, possibly followed by the start of one more copy. A run with more copies than
/// `allowedRepeats(words:)` (3 for a phrase of up to `longestShortPhrase` words, which people do
/// repeat; 1 for a longer one) is cut to that many, unless its words have room in the audio: the
/// whole run, and the copies beyond those allowed on their own, taking at least
/// `shortestCopySeconds` per word, by the word times, and the copies not piling up at the end (a
/// loop's copies are squeezed, or pile up at the end of the audio). The start of a further copy
/// after a run that is cut goes too when it is squeezed as well.
public enum RepetitionGuard {
    /// The longest phrase, in words, that may be said `shortPhraseRepeats` times whatever its times.
    public static let longestShortPhrase = 4
    /// Copies of a phrase of up to `longestShortPhrase` words kept whatever their times.
    public static let shortPhraseRepeats = 3
    /// Seconds per word below which a copy is too short to have been said.
    public static let shortestCopySeconds = 0.12

    /// Copies of a phrase of `words` words kept whatever their times: `shortPhraseRepeats` up to
    /// `longestShortPhrase` words ("no, no, no"), one for a longer phrase.
    public static func allowedRepeats(words: Int) -> Int {
        words <= longestShortPhrase ? shortPhraseRepeats : 1
    }

    /// `words` with every over-long run of a repeated phrase cut to `allowedRepeats(words:)` copies.
    /// Times are seconds (any origin).
    /// - Complexity: O(n²) in words at worst; a mismatch on a phrase's first word ends each try.
    public static func trimmed(_ words: [WordTiming]) -> [WordTiming] {
        let keys = words.map { LocalAgreement.comparable($0.word) }
        var kept: [WordTiming] = []
        var index = 0
        while index < words.count {
            if let run = loop(at: index, words: words, keys: keys) {
                kept += words[index..<run.kept]
                index = run.end
            } else {
                kept.append(words[index])
                index += 1
            }
        }
        return kept
    }

    /// The loop starting at `index`, shortest phrase first: where its allowed copies end (`kept`)
    /// and where the words cut end (`end`); nil when none starts there.
    private static func loop(at index: Int, words: [WordTiming], keys: [String]) -> (kept: Int, end: Int)? {
        let remaining = words.count - index
        guard remaining >= 2 else { return nil }
        for length in 1...(remaining / 2) {
            let allowed = allowedRepeats(words: length)
            guard index + length * (allowed + 1) <= words.count else { continue }
            guard keys[index + length] == keys[index] else { continue }  // not even a second copy's first word
            let phrase = keys[index..<index + length]
            guard !phrase.allSatisfy(\.isEmpty) else { continue }
            var copies = 1
            while index + (copies + 1) * length <= words.count,
                  keys[index + copies * length..<index + (copies + 1) * length].elementsEqual(phrase) {
                copies += 1
            }
            guard copies > allowed else { continue }
            let runEnd = index + copies * length
            let keptEnd = index + allowed * length
            if hasRoom(words[index..<runEnd]), hasRoom(words[keptEnd..<runEnd]), !pilesUp(words[index..<runEnd]) { continue }
            // The start of one more copy, written as the loop ran out of tokens.
            var partial = 0
            while partial < length - 1, runEnd + partial < words.count, keys[runEnd + partial] == phrase[phrase.startIndex + partial] {
                partial += 1
            }
            let cutEnd = partial > 0 && !hasRoom(words[runEnd..<runEnd + partial]) ? runEnd + partial : runEnd
            return (keptEnd, cutEnd)
        }
        return nil
    }

    /// True when `words` span at least `shortestCopySeconds` per word, by their times.
    private static func hasRoom(_ words: ArraySlice<WordTiming>) -> Bool {
        guard let first = words.first, let last = words.last else { return true }
        return last.endSeconds - first.startSeconds >= Double(words.count) * shortestCopySeconds
    }

    /// True when the run's second half is crowded into a fifth of the run's time or less: the copies
    /// a looping decoder writes once the audio is used up.
    private static func pilesUp(_ run: ArraySlice<WordTiming>) -> Bool {
        guard let first = run.first, let last = run.last, run.count >= 4 else { return false }
        let middle = run[run.startIndex + run.count / 2]
        let whole = last.endSeconds - first.startSeconds
        return whole > 0 && last.endSeconds - middle.startSeconds <= whole / 5
    }
}
