import Foundation

/// How the library cuts text into searchable tokens and folds them: one rule for the index, the
/// query and the places shown in results.
///
/// A token is a run of letters, marks and digits, or one Chinese, Japanese or Korean character
/// (those scripts have no spaces between words, so every character is its own token and a CJK
/// query of any length is a run of tokens). Everything else separates tokens. Tokens are folded:
/// case and diacritics removed ("CAFÉ" → "cafe").
///
/// ```swift
/// SearchText.tokens(in: "Café multi-agent").map(\.folded)   // ["cafe", "multi", "agent"]
/// SearchText.tokens(in: "我们用Swift").map(\.folded)          // ["我", "们", "用", "swift"]
/// ```
public enum SearchText {
    /// One token of a text.
    public struct Token: Sendable, Equatable {
        /// Where the token is in the text it was cut from.
        public var range: Range<String.Index>
        /// The token with case and diacritics folded.
        public var folded: String
    }

    /// The tokens of `text`, in order.
    /// - Complexity: O(n) in Unicode scalars; ASCII tokens are folded without Foundation.
    public static func tokens(in text: String) -> [Token] {
        var tokens: [Token] = []
        let scalars = text.unicodeScalars
        var start: String.Index?
        var asciiOnly = true
        func flush(_ end: String.Index) {
            guard let first = start else { return }
            let piece = text[first..<end]
            tokens.append(Token(range: first..<end, folded: asciiOnly ? asciiLowercased(piece) : fold(String(piece))))
            start = nil
        }
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            switch kind(of: scalar) {
            case .separator:
                flush(index)
            case .character:
                flush(index)
                tokens.append(Token(range: index..<next, folded: fold(String(scalar))))
            case .word(let ascii):
                if start == nil {
                    start = index
                    asciiOnly = true
                }
                if !ascii { asciiOnly = false }
            }
            index = next
        }
        flush(scalars.endIndex)
        return tokens
    }

    /// How many tokens `tokens(in:)` would return, without folding them.
    public static func tokenCount(in text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            switch kind(of: scalar) {
            case .separator: inWord = false
            case .character: count += 1; inWord = false
            case .word: if !inWord { count += 1; inWord = true }
            }
        }
        return count
    }

    /// `text` as the word index stores it: folded tokens separated by spaces, so the index's own
    /// tokenizer sees exactly the tokens of `tokens(in:)`. ASCII text is only lowercased (its
    /// punctuation already separates tokens there).
    public static func indexText(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(Substring(text)) }
        return tokens(in: text).map(\.folded).joined(separator: " ")
    }

    /// Folds case and diacritics ("CAFÉ" → "cafe"), the way every token is folded.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(Substring(text)) }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    private enum Kind { case separator, character, word(ascii: Bool) }

    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        if value < 0x80 {
            switch value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .word(ascii: true)
            default: return .separator
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            // Full-width Latin letters and digits (U+FF00…) are part of words; ideographs, kana and hangul stand alone.
            return SearchQuery.isCJK(scalar) && !(0xFF00...0xFFEF).contains(value) ? .character : .word(ascii: false)
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .word(ascii: false)
        default:
            return .separator
        }
    }

    private static func asciiLowercased(_ text: Substring) -> String {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A {
            bytes[index] += 0x20
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
