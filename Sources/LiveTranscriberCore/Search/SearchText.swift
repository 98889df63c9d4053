import Foundation

/// How the library cuts text into searchable tokens and folds them: one rule for the index, the
/// query and the places shown in results.
///
/// A token is a run of letters, marks and digits, or one Chinese, Japanese or Korean character
/// (those scripts have no spaces between words, so every character is its own token and a CJK
/// query of any length is a run of tokens). Everything else separates tokens. Word tokens are
/// folded: case and diacritics removed ("CAFÉ" → "cafe"); a CJK character is kept as it is.
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
    /// - Complexity: O(n) in UTF-8 bytes; ASCII tokens are folded without Foundation.
    public static func tokens(in text: String) -> [Token] {
        let list = TokenList(text)
        let utf8 = text.utf8
        return (0..<list.count).map { index in
            let start = utf8.index(utf8.startIndex, offsetBy: list.starts[index])
            let end = utf8.index(utf8.startIndex, offsetBy: list.ends[index])
            return Token(range: start..<end, folded: String(decoding: list.foldedBytes(index), as: UTF8.self))
        }
    }

    /// The tokens of one text as UTF-8 offsets, their folded bytes in one buffer: what matching
    /// many texts quickly needs (no string per token).
    public struct TokenList {
        /// UTF-8 offsets of each token's start and end in the text.
        public private(set) var starts: [Int] = []
        public private(set) var ends: [Int] = []
        /// Each token's folded bytes are `folded[foldStarts[i]..<foldEnds[i]]`.
        public private(set) var foldStarts: [Int] = []
        public private(set) var foldEnds: [Int] = []
        public private(set) var folded: [UInt8] = []

        public var count: Int { starts.count }

        public func foldedBytes(_ index: Int) -> ArraySlice<UInt8> { folded[foldStarts[index]..<foldEnds[index]] }

        /// An empty list, to be filled by `load(_:)`.
        public init() {}

        public init(_ text: String) {
            load(text)
        }

        /// Replaces the tokens with those of `text`, keeping the buffers (one list can serve many texts).
        public mutating func load(_ text: String) {
            starts.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            foldStarts.removeAll(keepingCapacity: true)
            foldEnds.removeAll(keepingCapacity: true)
            folded.removeAll(keepingCapacity: true)
            var text = text
            text.withUTF8 { bytes in
                // Folding rarely grows a word: one allocation for the folded bytes of most texts.
                folded.reserveCapacity(bytes.count)
                var index = 0
                var wordStart = -1
                var wordASCII = true
                func flush(_ end: Int) {
                    guard wordStart >= 0 else { return }
                    starts.append(wordStart)
                    ends.append(end)
                    foldStarts.append(folded.count)
                    if wordASCII {
                        for byte in bytes[wordStart..<end] { folded.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
                    } else {
                        folded.append(contentsOf: SearchText.fold(String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<end]), as: UTF8.self)).utf8)
                    }
                    foldEnds.append(folded.count)
                    wordStart = -1
                }
                while index < bytes.count {
                    let lead = bytes[index]
                    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    let end = min(bytes.count, index + length)
                    let kind: Kind
                    if lead < 0x80 {
                        kind = (lead >= 0x30 && lead <= 0x39) || (lead >= 0x41 && lead <= 0x5A) || (lead >= 0x61 && lead <= 0x7A)
                            ? .word(ascii: true) : .separator
                    } else {
                        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                        for position in (index + 1)..<end { value = value << 6 | UInt32(bytes[position] & 0x3F) }
                        kind = Unicode.Scalar(value).map(SearchText.kind(of:)) ?? .separator
                    }
                    switch kind {
                    case .separator:
                        flush(index)
                    case .character:
                        flush(index)
                        // A CJK character is its own folded form.
                        starts.append(index)
                        ends.append(end)
                        foldStarts.append(folded.count)
                        for position in index..<end { folded.append(bytes[position]) }
                        foldEnds.append(folded.count)
                    case .word(let ascii):
                        if wordStart < 0 {
                            wordStart = index
                            wordASCII = true
                        }
                        if !ascii { wordASCII = false }
                    }
                    index = end
                }
                flush(bytes.count)
            }
        }
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

    /// `text` in canonical composition (Unicode NFC), the form the index, the query and the places
    /// all search: a name from a macOS file name arrives decomposed ("회의" as jamo, "が" as
    /// か + U+3099) and must match the same words typed composed. Text whose scalars are all
    /// `isCanonicallyStable` (English, Chinese) is returned as it is, unread by Foundation.
    public static func canonical(_ text: String) -> String {
        var bytes = text
        if bytes.withUTF8({ !$0.contains { $0 >= 0x80 } }) { return text }  // ASCII: a byte test
        var stable = true
        for scalar in text.unicodeScalars where !isCanonicallyStable(scalar.value) {
            stable = false
            break
        }
        return stable ? text : text.precomposedStringWithCanonicalMapping
    }

    /// True for scalars whose tokens canonical composition cannot change: ASCII, separators, CJK
    /// unified ideographs, precomposed kana and hangul syllables; false for letters and marks
    /// outside ASCII (they may compose: é, か + U+3099), conjoining hangul jamo and CJK
    /// compatibility ideographs (which compose to other scalars). `canonical` asks Foundation
    /// only for text holding one of those.
    public static func isCanonicallyStable(_ value: UInt32) -> Bool {
        if value < 0x80 || TextScript.isCommonLetter(value) { return true }
        if (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x2F800...0x2FA1F).contains(value) { return false }
        guard let scalar = Unicode.Scalar(value), case .word = kind(of: scalar) else { return true }
        return false
    }

    /// `text` as the word index stores it: folded tokens separated by spaces, so the index's own
    /// tokenizer sees exactly the tokens of `tokens(in:)`. ASCII text is only lowercased (its
    /// punctuation already separates tokens there); other text is composed first (`canonical`).
    public static func indexText(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(Substring(text)) }
        let list = TokenList(canonical(text))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(list.folded.count + list.count)
        for index in 0..<list.count {
            if index > 0 { bytes.append(0x20) }
            bytes.append(contentsOf: list.foldedBytes(index))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Folds a word the way every word token is folded: `TextFolding.searchKey` (compatibility
    /// forms, case, diacritics, special letters: "Straße" → "strasse"), ASCII without Foundation.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(Substring(text)) }
        return TextFolding.searchKey(text)
    }

    enum Kind { case separator, character, word(ascii: Bool) }

    static func kind(of scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .word(ascii: true)
        case 0..<0x80: return .separator
        default:
            // The common CJK blocks, without a Unicode property lookup: ideographs, kana, hangul syllables.
            if TextScript.isCommonLetter(value) { return .character }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            // Full-width Latin letters and digits (U+FF00…) are part of words; ideographs, kana and hangul stand alone.
            return TextScript.isCJKLetter(scalar) && !(0xFF00...0xFFEF).contains(value) ? .character : .word(ascii: false)
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
