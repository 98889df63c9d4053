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

    /// `text` escaped, but with line breaks and tabs kept as they are: for multi-line output such
    /// as a transcript or an error message made of several lines.
    public static func escapedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.split(separator: "\t", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\t") }
            .joined(separator: "\n")
    }
}
