import Foundation

/// Removes API keys from text before it goes into an error.
public enum SecretRedactor {
    /// `text` with `key` and anything shaped like an OpenAI key (`sk-…`) replaced by `[redacted]`.
    public static func redact(_ text: String, key: String?) -> String {
        var result = text
        if let key, !key.isEmpty { result = result.replacingOccurrences(of: key, with: "[redacted]") }
        guard let regex = try? NSRegularExpression(pattern: "sk-[A-Za-z0-9_*\\-]{3,}") else { return result }
        return regex.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "[redacted]")
    }
}
