import Foundation

/// A user's search text as terms: what every store searches for, free of any index's syntax.
///
/// Any input is safe: the text is cut into words on whitespace, each word into folded tokens
/// (`SearchText`), and a word without any token (`*`, `"`, `(`) is dropped. A word of several
/// tokens is a phrase: `multi-agent` is `multi` followed by `agent`, `AT&T` is `at t`, `悬空` is
/// `悬` followed by `空`. The last word is a prefix (typing as you search: `meet` finds "meeting"),
/// unless its last token is a single character.
///
/// ```swift
/// SearchQuery("Café multi-agent").terms
/// // [SearchTerm(tokens: ["cafe"], isPrefix: false), SearchTerm(tokens: ["multi", "agent"], isPrefix: true)]
/// ```
public struct SearchQuery: Sendable, Equatable {
    /// The terms, in the order typed, without repeats.
    public private(set) var terms: [SearchTerm] = []

    /// At most this many words are used; the rest are ignored (index expressions have depth limits).
    public static let maximumWords = 32

    /// Parses `text`.
    public init(_ text: String) {
        let words = SearchText.canonical(text).split(whereSeparator: { $0.isWhitespace }).prefix(Self.maximumWords)
        var seen = Set<SearchTerm>()
        for (position, word) in words.enumerated() {
            let tokens = SearchText.tokens(in: String(word)).map(\.folded).filter { !$0.isEmpty }
            guard let last = tokens.last else { continue }
            let isPrefix = position == words.count - 1 && last.count > 1
            let term = SearchTerm(tokens: tokens, isPrefix: isPrefix)
            if seen.insert(term).inserted { terms.append(term) }
        }
    }

    /// True when nothing searchable is left (empty input, or only punctuation).
    public var isEmpty: Bool { terms.isEmpty }

    /// Folds compatibility forms, case, diacritics and special letters ("CAFÉ" -> "cafe",
    /// "Straße" -> "strasse"); see `SearchText.fold`.
    public static func fold(_ text: String) -> String { SearchText.fold(text) }

    /// True for Han, Hiragana, Katakana and Hangul characters, and CJK punctuation and symbols
    /// (`TextScript.isCJK`, the one script table).
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        TextScript.isCJK(scalar)
    }
}

/// One term of a query: a run of folded tokens that must appear in this order, next to each other.
public struct SearchTerm: Sendable, Equatable, Hashable {
    /// Folded tokens (`SearchText`), at least one.
    public var tokens: [String]
    /// True when the last token matches any token it begins ("meet" matches "meeting").
    public var isPrefix: Bool

    public init(tokens: [String], isPrefix: Bool) {
        self.tokens = tokens
        self.isPrefix = isPrefix
    }

    /// Where this term occurs in `tokens` (of one text): the range in that text from the first
    /// matching token to the last, for every occurrence.
    /// - Complexity: O(n × m) in the text's tokens and the term's tokens.
    public func occurrences(in tokens: [SearchText.Token]) -> [Range<String.Index>] {
        let count = self.tokens.count
        guard tokens.count >= count else { return [] }
        var found: [Range<String.Index>] = []
        for start in 0...(tokens.count - count) {
            var matches = true
            for offset in 0..<count {
                let token = tokens[start + offset].folded
                let wanted = self.tokens[offset]
                if offset == count - 1 && isPrefix ? !token.utf8.starts(with: wanted.utf8) : !token.utf8.elementsEqual(wanted.utf8) {
                    matches = false
                    break
                }
            }
            if matches { found.append(tokens[start].range.lowerBound..<tokens[start + count - 1].range.upperBound) }
        }
        return found
    }

    /// The same as `occurrences(in:)` over a `SearchText.TokenList`: UTF-8 offsets of each
    /// occurrence's start and end. `bytes` are the term's tokens as UTF-8 (`tokens.map { Array($0.utf8) }`).
    public func occurrences(in list: SearchText.TokenList, bytes: [[UInt8]]) -> [(start: Int, end: Int)] {
        let count = bytes.count
        guard count > 0, list.count >= count else { return [] }
        var found: [(start: Int, end: Int)] = []
        list.folded.withUnsafeBufferPointer { folded in
            for start in 0...(list.count - count) {
                var matches = true
                for offset in 0..<count {
                    let token = start + offset
                    let wanted = bytes[offset]
                    let length = list.foldEnds[token] - list.foldStarts[token]
                    let prefix = offset == count - 1 && isPrefix
                    guard prefix ? length >= wanted.count : length == wanted.count else {
                        matches = false
                        break
                    }
                    let base = list.foldStarts[token]
                    for position in 0..<wanted.count where folded[base + position] != wanted[position] {
                        matches = false
                        break
                    }
                    if !matches { break }
                }
                if matches { found.append((list.starts[start], list.ends[start + count - 1])) }
            }
        }
        return found
    }
}
