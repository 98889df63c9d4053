import Foundation

/// A user's search text turned into safe terms for the library index.
///
/// Any input is safe: the words are folded (case and diacritics, as the index's `unicode61
/// remove_diacritics 2` tokenizer folds them), and each becomes a quoted FTS5 string, so operators
/// (`AND`, `NOT`, `*`, `"`, `(`, `:`) are matched as text or dropped, never interpreted.
///
/// Words with Chinese, Japanese or Korean characters are not split into words by the index's word
/// tokenizer (those scripts have no spaces), so they become substring terms instead: three or more
/// characters search the trigram index, one or two characters a substring scan (`instr`).
///
/// ```swift
/// SearchQuery("Café multi-agent").wordMatchExpression  // "\"cafe\"* AND \"multi-agent\"*"
/// SearchQuery("悬空").substrings                        // ["悬空"]
/// ```
public struct SearchQuery: Sendable, Equatable {
    /// Folded words matched by the word index, each as a prefix phrase.
    public private(set) var words: [String] = []
    /// Folded words with CJK characters, matched as substrings of the folded text.
    public private(set) var substrings: [String] = []

    /// At most this many words are used; the rest are ignored (FTS5 expressions have depth limits).
    public static let maximumWords = 32

    /// Parses `text`. Words are separated by whitespace; a word without any letter or digit is dropped.
    public init(_ text: String) {
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            guard words.count + substrings.count < Self.maximumWords else { break }
            let folded = Self.fold(String(word))
            if folded.unicodeScalars.contains(where: Self.isCJK) {
                substrings.append(folded)
            } else if folded.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) {
                words.append(folded)
            }
        }
    }

    /// True when nothing searchable is left (empty input, or only punctuation).
    public var isEmpty: Bool { words.isEmpty && substrings.isEmpty }

    /// The FTS5 MATCH expression for `words`: quoted strings (quotes doubled), each a prefix, all
    /// required. Nil when there are no words.
    public var wordMatchExpression: String? {
        words.isEmpty ? nil : words.map { Self.quoted($0) + "*" }.joined(separator: " AND ")
    }

    /// The FTS5 MATCH expression for the trigram index: the substrings of three or more characters.
    /// Nil when there are none.
    public var trigramMatchExpression: String? {
        let long = substrings.filter { $0.unicodeScalars.count >= 3 }
        return long.isEmpty ? nil : long.map(Self.quoted).joined(separator: " AND ")
    }

    /// Substrings too short for the trigram index (one or two characters), scanned with `instr`.
    public var shortSubstrings: [String] {
        substrings.filter { $0.unicodeScalars.count < 3 }
    }

    /// Folds compatibility forms, case, diacritics and special letters ("CAFÉ" -> "cafe",
    /// "Straße" -> "strasse"): `TextFolding.searchKey`, the one fold the index applies to the text
    /// it stores, so a query and the text it should find always fold alike.
    public static func fold(_ text: String) -> String {
        TextFolding.searchKey(text)
    }

    /// `text` with a space where CJK characters meet Latin letters or digits, so a word tokenizer
    /// that cannot split CJK text still sees the Latin words inside it: "我们用Swift开发" becomes
    /// "我们用 Swift 开发" (and `swift` finds it). Text without CJK is returned unchanged.
    /// - Complexity: O(n) in Unicode scalars.
    public static func separatingScripts(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCJK) else { return text }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if let previous, isWordScalar(previous), isWordScalar(scalar), isCJK(previous) != isCJK(scalar) {
                result.append(" ")
            }
            result.append(scalar)
            previous = scalar
        }
        return String(result)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        isCJK(scalar) ? TextScript.isCJKLetter(scalar) || CharacterSet.alphanumerics.contains(scalar) && scalar.value >= 0xFF00
            : CharacterSet.alphanumerics.contains(scalar)
    }

    /// An FTS5 string literal: `"` + text with `"` doubled + `"`.
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// True for Han, Hiragana, Katakana and Hangul characters, and CJK punctuation and symbols
    /// (`TextScript.isCJK`, the one script table).
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        TextScript.isCJK(scalar)
    }
}
