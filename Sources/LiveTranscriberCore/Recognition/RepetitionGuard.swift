import Foundation

/// A guard against runaway repetition: a decoder stuck in a loop writes one word or phrase over
/// and over ("80, 80, 80, …", "um, um, um, …") far beyond what was said. Whisper's own defence,
/// temperature fallback when a decode's text compresses too well (whisper.cpp's entropy
/// threshold), is asked for on final decodes; this rule cuts what gets through, on every decode.
///
/// A run is the same n-gram (1 to `longestPhrase` words, compared with `LocalAgreement.comparable`)
/// repeated back to back. A run longer than `allowedRepeats` copies is cut to that many, unless
/// its words have room in the audio: each copy taking at least `shortestCopySeconds` per word, by
/// the word times (a loop's copies are squeezed, or pile up at the end of the audio).
public enum RepetitionGuard {
    /// The longest phrase looked for, in words.
    public static let longestPhrase = 4
    /// Copies of a phrase kept whatever their times.
    public static let allowedRepeats = 3
    /// Seconds per word below which a copy is too short to have been said.
    public static let shortestCopySeconds = 0.12

    /// `words` with every over-long run of a repeated phrase cut to `allowedRepeats` copies.
    /// Times are seconds (any origin).
    public static func trimmed(_ words: [WordTiming]) -> [WordTiming] {
        let keys = words.map { LocalAgreement.comparable($0.word) }
        var kept: [WordTiming] = []
        var index = 0
        while index < words.count {
            var skipped = false
            for length in 1...longestPhrase where index + length * (allowedRepeats + 1) <= words.count {
                let phrase = Array(keys[index..<index + length])
                guard !phrase.allSatisfy(\.isEmpty) else { continue }
                var copies = 1
                while index + (copies + 1) * length <= words.count,
                      Array(keys[index + copies * length..<index + (copies + 1) * length]) == phrase {
                    copies += 1
                }
                guard copies > allowedRepeats else { continue }
                let runEnd = index + copies * length
                let seconds = words[runEnd - 1].endSeconds - words[index].startSeconds
                if seconds >= Double(copies * length) * shortestCopySeconds, !pilesUp(words[index..<runEnd]) { continue }
                kept += words[index..<index + allowedRepeats * length]
                index = runEnd
                skipped = true
                break
            }
            if !skipped {
                kept.append(words[index])
                index += 1
            }
        }
        return kept
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
