import Foundation

/// Terminal columns a character takes, as monospaced terminals draw it: the one width table for
/// the live card, `list`, `show` and `search` tables and the SVG previews.
///
/// - 0: a character made only of control or format characters (they are never printed raw:
///   see `VisibleText`), and a lone combining mark;
/// - 2: emoji shown as emoji (the `Emoji_Presentation` property, or any emoji followed by the
///   emoji variation selector U+FE0F, such as ❤️), emoji sequences joined by U+200D, flags, and
///   East Asian wide and full-width characters (`TextScript`: Han, Kana, Hangul syllables and
///   CJK symbols, except half-width forms U+FF61–FFDC and U+FFE8–FFEE);
/// - 1: everything else.
public enum CharacterWidth {
    /// Columns `character` takes: 0, 1 or 2.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let category = first.properties.generalCategory
        if category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator {
            return 0
        }
        if category == .nonspacingMark || category == .enclosingMark { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D }) { return 2 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // regional indicators (flags)
        if TextScript.of(first) != nil {
            let value = first.value
            if (0xFF61...0xFFDC).contains(value) || (0xFFE8...0xFFEE).contains(value) { return 1 }  // half-width forms
            if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }  // conjoining jamo vowels and finals
            return 2
        }
        return 1
    }

    /// Columns `text` takes: the sum of its characters' `columns(of:)`.
    ///
    /// ASCII is counted byte by byte (a printable byte is 1 column, a control byte 0, as
    /// `columns(of:)` says of them); only stretches holding other characters are split into
    /// characters, each with the ASCII byte before it (which may be the start of its first
    /// character, as `#` is of the keycap `#️⃣`). Unicode's grapheme rules never join two ASCII
    /// characters in a row other than CR LF, so a stretch ends at two ASCII bytes.
    /// - Complexity: O(n) in UTF-8 bytes.
    public static func columns(of text: some StringProtocol) -> Int {
        let bytes = Array(text.utf8)
        var total = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 && (index + 1 == bytes.count || bytes[index + 1] < 0x80 || isPlainWide(bytes, at: index + 1)) {
                if byte >= 0x20 && byte != 0x7F { total += 1 }
                index += 1
                continue
            }
            // A CJK ideograph, kana or hangul syllable followed by ASCII, by the end or by another
            // of them is a whole character of 2 columns (no grapheme rule joins these pairs).
            if let width = plainWideScalarLength(bytes, at: index) {
                total += 2
                index += width
                continue
            }
            // A stretch from here to the next place two ASCII bytes (not CR LF) meet.
            var end = index + 1
            while end < bytes.count && !(bytes[end - 1] < 0x80 && bytes[end] < 0x80 && !(bytes[end - 1] == 0x0D && bytes[end] == 0x0A)) {
                end += 1
            }
            total += String(decoding: bytes[index..<end], as: UTF8.self).reduce(0) { $0 + columns(of: $1) }
            index = end
        }
        return total
    }

    /// 3, the UTF-8 length, when `bytes` at `index` hold a plain wide scalar (`isPlainWide`)
    /// followed by the end, an ASCII byte or another plain wide scalar; else nil.
    static func plainWideScalarLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard isPlainWide(bytes, at: index) else { return nil }
        let next = index + 3
        return next == bytes.count || bytes[next] < 0x80 || isPlainWide(bytes, at: next) ? 3 : nil
    }

    /// True when `bytes` at `index` hold a CJK unified ideograph (U+4E00–9FFF), hiragana
    /// (U+3041–3096), katakana (U+30A1–30FA) or a hangul syllable (U+AC00–D7A3): 2 columns each,
    /// and no grapheme rule joins one to ASCII or to another of them.
    static func isPlainWide(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 2 < bytes.count, bytes[index] & 0xF0 == 0xE0 else { return false }
        let value = (UInt32(bytes[index]) & 0x0F) << 12 | (UInt32(bytes[index + 1]) & 0x3F) << 6 | (UInt32(bytes[index + 2]) & 0x3F)
        return TextScript.isCommonLetter(value)
    }
}
