import Foundation

/// The writing system of a piece of text, as far as summaries care.
public enum WritingScript: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case latin, han, kana, hangul, cyrillic, arabic, hebrew, greek, devanagari, thai

    /// The script of one Unicode scalar, or nil for digits, punctuation, symbols, emoji and spaces.
    public static func of(_ scalar: Unicode.Scalar) -> WritingScript? {
        // East Asian scripts come from the one script table (`TextScript`).
        switch TextScript.of(scalar) {
        case .han: return .han
        case .hiragana, .katakana: return .kana
        case .hangul: return .hangul
        case .cjkSymbol: return nil
        case nil: break
        }
        switch scalar.value {
        case 0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return .hebrew
        case 0x0370...0x03FF, 0x1F00...0x1FFF: return .greek
        case 0x0900...0x097F, 0xA8E0...0xA8FF: return .devanagari
        case 0x0E00...0x0E7F: return .thai
        case 0x0041...0x005A, 0x0061...0x007A, 0x00C0...0x024F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return scalar.properties.isAlphabetic ? .latin : nil
        default: return nil
        }
    }

    /// Letters per script in `text`.
    public static func counts(in text: String) -> [WritingScript: Int] {
        var counts: [WritingScript: Int] = [:]
        for scalar in text.unicodeScalars {
            if let script = of(scalar) { counts[script, default: 0] += 1 }
        }
        return counts
    }

    /// The script most letters of `text` are written in, or nil when it has no letters.
    ///
    /// Han and Kana count together as Japanese (`.kana`) when at least a tenth of those letters are
    /// Kana (Japanese mixes both; Chinese has none), otherwise as Chinese (`.han`).
    public static func dominant(in text: String) -> WritingScript? {
        var counts = counts(in: text)
        let han = counts[.han] ?? 0
        let kana = counts[.kana] ?? 0
        if han + kana > 0 {
            counts[.han] = nil
            counts[.kana] = nil
            counts[kana * 10 >= han + kana ? .kana : .han] = han + kana
        }
        // Ties break in declaration order, so the answer never depends on dictionary order.
        return allCases.filter { (counts[$0] ?? 0) > 0 }.max { lhs, rhs in
            let left = counts[lhs] ?? 0, right = counts[rhs] ?? 0
            if left != right { return left < right }
            return allCases.firstIndex(of: lhs)! > allCases.firstIndex(of: rhs)!
        }
    }
}
