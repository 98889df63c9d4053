import Foundation

/// Text from a user or a file made safe to print on a terminal: every control and invisible format
/// character is shown as a visible escape instead of being sent raw.
///
/// A raw ESC (U+001B) can move the cursor, recolor or retitle a terminal, and a bidirectional
/// override (U+202E) makes text read differently from what it is. Both are printed as
/// `\u{1B}`, `\u{202E}`: what the text really holds, in the notation Swift and JSON readers know.
/// The joiners that emoji and many scripts need (U+200C, U+200D, and the tag characters inside an
/// emoji flag) are not escaped.
///
/// ```swift
/// VisibleText.escaped("talk\u{1B}[2J.wav")  // "talk\\u{1B}[2J.wav"
/// ```
public enum VisibleText {
    /// True for a scalar that must never be printed raw (see `isHidden(_:in:)`).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII without a property lookup: its controls are C0 and DEL.
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        // The common CJK letters: never hidden (most of a Chinese, Japanese or Korean text).
        if TextScript.isCommonLetter(scalar.value) { return false }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        case .format:
            return scalar.value != 0x200C && scalar.value != 0x200D
        default:
            return (0xFFF9...0xFFFB).contains(scalar.value)  // interlinear annotation controls
        }
    }

    /// True when `scalar`, found in `character`, must not be printed raw. Tag characters
    /// (U+E0020–E007F) are kept inside an emoji flag sequence (🏴 + tags), hidden anywhere else.
    public static func isHidden(_ scalar: Unicode.Scalar, in character: Character) -> Bool {
        guard isHidden(scalar) else { return false }
        if (0xE0020...0xE007F).contains(scalar.value), character.unicodeScalars.first?.value == 0x1F3F4 { return false }
        return true
    }

    /// `text` with every hidden scalar written as `\u{HEX}` (upper-case hex, no leading zeros).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var result = ""
        for character in text {
            guard character.unicodeScalars.contains(where: isHidden) else {
                result.append(character)
                continue
            }
            for scalar in character.unicodeScalars {
                if isHidden(scalar, in: character) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` with every terminal escape sequence (ECMA-48, as VT100 and xterm read them) removed
    /// whole, each replaced by one space, so no residue such as "[31m" is left when the ESC alone
    /// would be dropped. Removed:
    /// - CSI: ESC [ (or U+009B), parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one
    ///   final byte 0x40–0x7E ("\u{1B}[31m", "\u{1B}[2J", "\u{1B}[?25l");
    /// - control strings: OSC (ESC ] or U+009D), DCS (ESC P, U+0090), SOS (ESC X, U+0098), PM
    ///   (ESC ^, U+009E), APC (ESC _, U+009F), up to their terminator, ST (ESC \ or U+009C) or,
    ///   for OSC, BEL; an unterminated one runs to the end of the text;
    /// - other escapes: ESC, intermediate bytes 0x20–0x2F, one final byte 0x30–0x7E ("\u{1B}(B",
    ///   "\u{1B}c"); a lone ESC at the end.
    ///
    /// Other hidden characters are left for the caller's rule (`RecordingName.cleaned` makes them
    /// spaces). For names made from text from outside; printed text is escaped instead (`escaped`).
    /// - Complexity: O(n) in Unicode scalars.
    public static func withoutEscapeSequences(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { $0.value == 0x1B || (0x90...0x9F).contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        func skipControlString(from start: Int, belEnds: Bool) -> Int {
            var at = start
            while at < scalars.count {
                let value = scalars[at].value
                if value == 0x9C || (belEnds && value == 0x07) { return at + 1 }
                if value == 0x1B, at + 1 < scalars.count, scalars[at + 1] == "\\" { return at + 2 }
                at += 1
            }
            return at
        }
        func skipCSI(from start: Int) -> Int {
            var at = start
            while at < scalars.count, (0x30...0x3F).contains(scalars[at].value) { at += 1 }
            while at < scalars.count, (0x20...0x2F).contains(scalars[at].value) { at += 1 }
            if at < scalars.count, (0x40...0x7E).contains(scalars[at].value) { at += 1 }
            return at
        }
        while index < scalars.count {
            let value = scalars[index].value
            var next: Int?
            switch value {
            case 0x9B: next = skipCSI(from: index + 1)
            case 0x9D: next = skipControlString(from: index + 1, belEnds: true)
            case 0x90, 0x98, 0x9E, 0x9F: next = skipControlString(from: index + 1, belEnds: false)
            case 0x1B:
                let introducer = index + 1 < scalars.count ? scalars[index + 1].value : nil
                switch introducer {
                case 0x5B?: next = skipCSI(from: index + 2)  // [
                case 0x5D?: next = skipControlString(from: index + 2, belEnds: true)  // ]
                case 0x50?, 0x58?, 0x5E?, 0x5F?: next = skipControlString(from: index + 2, belEnds: false)  // P X ^ _
                default:
                    var at = index + 1
                    while at < scalars.count, (0x20...0x2F).contains(scalars[at].value) { at += 1 }
                    if at < scalars.count, (0x30...0x7E).contains(scalars[at].value) { at += 1 }
                    next = at
                }
            default: break
            }
            if let next {
                result.append(" ")
                index = next
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// `text` escaped, but with line breaks and tabs kept as they are: for multi-line output such
    /// as a transcript or an error message made of several lines.
    public static func escapedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.split(separator: "\t", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\t") }
            .joined(separator: "\n")
    }
}
