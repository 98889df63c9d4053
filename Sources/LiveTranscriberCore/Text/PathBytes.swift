import Foundation

/// File names as bytes: on Linux a path is any bytes but NUL, not necessarily UTF-8 (a name written
/// in Latin-1, `16 La Red\xE9couverte.wav`). A Swift `String` cannot hold such bytes, and Swift's
/// `CommandLine.arguments` replaces them with U+FFFD, which names another file. This rule keeps
/// them: each byte of an ill-formed UTF-8 sequence is carried as one private-use scalar,
/// U+10FF80 to U+10FFFF (the scalar U+10FF00 + the byte, 0x80…0xFF), so `bytes(of:)` gives the
/// original back exactly. The same idea as Python's "surrogateescape" (PEP 383), which a Swift
/// string cannot use because lone surrogates are not scalars.
///
/// ```swift
/// let argument = PathBytes.string([0x61, 0xE9, 0x2E, 0x77, 0x61, 0x76])  // "a" + U+10FFE9 + ".wav"
/// PathBytes.shown(argument)     // "a\\xE9.wav"
/// PathBytes.readable(argument)  // "aé.wav" (the byte read as Latin-1)
/// ```
public enum PathBytes {
    static let rawBase: UInt32 = 0x10FF00

    /// `bytes` as a string: well-formed UTF-8 decoded, every other byte kept as its private-use scalar.
    /// - Complexity: O(n) in bytes.
    public static func string(_ bytes: [UInt8]) -> String {
        if let text = String(bytes: bytes, encoding: .utf8) { return text }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            if length > 0, index + length <= bytes.count,
               let decoded = String(bytes: bytes[index..<index + length], encoding: .utf8), decoded.unicodeScalars.count == 1 {
                scalars.append(decoded.unicodeScalars.first!)
                index += length
            } else {
                scalars.append(Unicode.Scalar(rawBase + UInt32(lead))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: its UTF-8, with each private-use scalar of `string(_:)` back to its byte.
    public static func bytes(of text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let raw = rawByte(scalar) { bytes.append(raw) } else { bytes += Array(String(scalar).utf8) }
        }
        return bytes
    }

    /// True when `text` carries bytes that are not UTF-8.
    public static func hasRawBytes(_ text: String) -> Bool {
        text.unicodeScalars.contains { rawByte($0) != nil }
    }

    /// `text` for messages: each byte that is not UTF-8 as `\xE9`, control and invisible characters
    /// as `VisibleText.escaped` shows them (a line break as `\u{A}`).
    public static func shown(_ text: String) -> String {
        guard hasRawBytes(text) else { return VisibleText.escaped(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if let raw = rawByte(scalar) {
                result += "\\x" + String(format: "%02X", raw)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return VisibleText.escaped(result)
    }

    /// `text` as valid Unicode for a recording's name: each byte that is not UTF-8 read as Latin-1
    /// (ISO 8859-1, the usual encoding of such names: 0xE9 is é). Other text is unchanged.
    public static func readable(_ text: String) -> String {
        guard hasRawBytes(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(rawByte(scalar).map { Unicode.Scalar($0) } ?? scalar)
        }
        return String(scalars)
    }

    private static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        (rawBase + 0x80...rawBase + 0xFF).contains(scalar.value) ? UInt8(scalar.value - rawBase) : nil
    }
}
