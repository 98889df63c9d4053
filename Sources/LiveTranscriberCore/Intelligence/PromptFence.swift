import Foundation

/// Fences untrusted text (a transcript, notes) inside a prompt so nothing in it can close the fence
/// or pass for an instruction.
///
/// The fence tag carries a random nonce (`<transcript-4f1c9a2e7b3d5a60>`), which the text cannot
/// guess; in addition, anything in the text that looks like a fence tag (`<transcript`, `</notes`,
/// also with spaces, in any case) has its `<` replaced by `‹`, and any occurrence of the nonce
/// itself is removed. The system instructions tell the model the fenced text is data.
public struct PromptFence: Sendable, Equatable {
    /// The tag name, such as "transcript-4f1c9a2e7b3d5a60".
    public let tag: String
    let nonce: String

    /// A fence labelled `label` ("transcript", "notes") with `nonce` (letters and digits).
    public init(label: String, nonce: String) {
        let safe = String(nonce.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII })
        self.nonce = safe.isEmpty ? "0" : safe
        tag = "\(label)-\(self.nonce)"
    }

    /// A 16-hex-digit random nonce.
    public static func randomNonce() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))
    }

    /// The opening tag, `<transcript-…>`.
    public var open: String { "<\(tag)>" }
    /// The closing tag, `</transcript-…>`.
    public var close: String { "</\(tag)>" }

    /// `text` neutralized and wrapped: the opening tag, a newline, the text, a newline, the closing tag.
    public func wrap(_ text: String) -> String {
        "\(open)\n\(neutralize(text))\n\(close)"
    }

    /// `text` with every fence-like tag and every occurrence of the nonce made inert.
    public func neutralize(_ text: String) -> String {
        var result = text
        while let range = result.range(of: nonce, options: .caseInsensitive) {
            result.replaceSubrange(range, with: "")
        }
        let pattern = "<(\\s*/?\\s*(?:transcript|notes|tags|system|instructions?)\\b)"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return result }
        let whole = NSRange(result.startIndex..., in: result)
        return regex.stringByReplacingMatches(in: result, options: [], range: whole, withTemplate: "‹$1")
    }
}
