import Foundation

/// Word error rate: (substitutions + deletions + insertions) / reference words.
public struct WordErrorRate: Sendable, Equatable {
    /// Substitutions, deletions and insertions of the best alignment (Levenshtein over words).
    public var errors: Int
    /// Words in the reference.
    public var referenceWords: Int

    public init(errors: Int, referenceWords: Int) {
        self.errors = errors
        self.referenceWords = referenceWords
    }

    /// Errors over reference words; 0 for an empty reference with no hypothesis.
    public var rate: Double {
        referenceWords == 0 ? (errors == 0 ? 0 : 1) : Double(errors) / Double(referenceWords)
    }

    /// Sums errors and reference words, so a set of files gives one corpus-level rate.
    public static func + (lhs: WordErrorRate, rhs: WordErrorRate) -> WordErrorRate {
        WordErrorRate(errors: lhs.errors + rhs.errors, referenceWords: lhs.referenceWords + rhs.referenceWords)
    }

    /// Compares two texts after `normalizedWords`.
    /// - Complexity: O(r × h) in words.
    public static func measure(reference: String, hypothesis: String) -> WordErrorRate {
        let ref = normalizedWords(reference)
        let hyp = normalizedWords(hypothesis)
        var previous = Array(0...hyp.count)
        for (i, refWord) in ref.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: hyp.count)
            for (j, hypWord) in hyp.enumerated() {
                let substitution = previous[j] + (refWord == hypWord ? 0 : 1)
                current[j + 1] = min(substitution, previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return WordErrorRate(errors: previous[hyp.count], referenceWords: ref.count)
    }

    /// Lowercased words with punctuation removed (apostrophes kept); sentence markers
    /// such as `<s>` and `</s>` dropped; hyphenated words split ("ill-disposed" is "ill disposed");
    /// the English number words zero to twenty and the tens written as digits ("ten" → "10") and
    /// "mr", "mrs" and "dr" spelled out, so the way a transcriber writes them is no error.
    public static func normalizedWords(_ text: String) -> [String] {
        text.lowercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "–" })
            .filter { !($0.hasPrefix("<") && $0.hasSuffix(">")) }
            .map { word in String(word.filter { $0.isLetter || $0.isNumber || $0 == "'" }) }
            .filter { !$0.isEmpty }
            .map { numberWords[$0] ?? $0 }
    }

    private static let numberWords: [String: String] = {
        let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                     "nineteen", "twenty"]
        let tens = ["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        var table: [String: String] = [:]
        for (value, word) in units.enumerated() { table[word] = String(value) }
        for (index, word) in tens.enumerated() { table[word] = String(30 + index * 10) }
        table["mr"] = "mister"
        table["mrs"] = "missus"
        table["dr"] = "doctor"
        return table
    }()
}
