import Foundation

/// The one table of East Asian scripts: which characters are Han, Kana or Hangul, and which are
/// CJK punctuation and symbols. Search, keywords, summaries, the transcript aligner and character
/// widths all read it, so they never disagree about a character.
///
/// Swift exposes no Script property, so the blocks are listed here; Han uses Unicode's
/// `Ideographic` property, which Swift does expose (it covers every CJK Unified Ideographs
/// extension and the compatibility ideographs, including blocks added after this table).
public enum TextScript: Sendable, Equatable, Hashable {
    case han, hiragana, katakana, hangul
    /// CJK punctuation, symbols and full-width forms (U+3000–303F, U+FF00–FFEF, …): not letters.
    case cjkSymbol

    /// The East Asian script of `scalar`, or nil for any other character.
    public static func of(_ scalar: Unicode.Scalar) -> TextScript? {
        switch scalar.value {
        case 0x3041...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: return .katakana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xFFA0...0xFFDC: return .hangul
        case 0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B: return .han
        case 0x2E80...0x2FDF, 0x3000...0x303F, 0x3190...0x31EF, 0x3200...0x33FF, 0xFE30...0xFE4F, 0xFF00...0xFFEF:
            return .cjkSymbol
        default:
            return scalar.properties.isIdeographic ? .han : nil
        }
    }

    /// True for Han, Kana and Hangul characters and CJK punctuation and symbols: text that is
    /// written without spaces between words (Korean has spaces, but its syllables are searched the same way).
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool { of(scalar) != nil }

    /// True for the most common East Asian letters, told from the scalar value alone: CJK unified
    /// ideographs (U+4E00–9FFF), precomposed hiragana (U+3041–3096) and katakana (U+30A1–30FA), and
    /// hangul syllables (U+AC00–D7A3). The fast paths of search, widths and escaping take these
    /// without a Unicode property lookup; every one of them is a letter of `of(_:)` (tested), and
    /// none composes with another scalar or joins ASCII in a grapheme.
    @inline(__always)
    public static func isCommonLetter(_ value: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(value) || (0x3041...0x3096).contains(value)
            || (0x30A1...0x30FA).contains(value) || (0xAC00...0xD7A3).contains(value)
    }

    /// True for Han, Kana and Hangul letters (CJK punctuation and symbols excluded).
    public static func isCJKLetter(_ scalar: Unicode.Scalar) -> Bool {
        guard let script = of(scalar) else { return false }
        return script != .cjkSymbol
    }
}
