import Foundation

/// Why a call to OpenAI (or an OpenAI-compatible server) failed. Every message is a sentence a user
/// can act on, and none contains the API key (server messages are redacted).
public enum OpenAIError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// No key in `OPENAI_API_KEY`, `OPENAI_API_KEY_FILE` or the default key file.
    case missingKey(defaultKeyFile: String)
    /// No key stored in the app's Settings.
    case missingKeyInSettings
    /// The key file cannot be read.
    case keyFileUnreadable(path: String, reason: String)
    /// The key file can be read by others than its owner.
    case keyFileTooOpen(path: String, mode: Int)
    /// The key contains white space or control characters, which cannot go in a header.
    case malformedKey(source: String)
    /// 400: the request itself is wrong; retrying cannot help.
    case badRequest(message: String)
    /// `--base-url` or `OPENAI_BASE_URL` is not an http(s) URL; nothing was sent.
    case invalidBaseURL(String)
    /// 401 or 403: the key was refused; `keyPlace` is where the user keeps it.
    case unauthorized(status: Int, message: String, keyPlace: OpenAIKeyPlace)
    /// 413, or a body that would exceed the limit before sending.
    case tooLarge(bytes: Int?)
    /// 429 with a quota or billing code (`insufficient_quota`…): not retried, nothing will work until
    /// the account has credit.
    case quotaExceeded(code: String, message: String)
    /// Any other status, after the retries the policy allows.
    case http(status: Int, message: String, attempts: Int)
    /// No response (connection refused, timeout), after the retries the policy allows.
    case transport(message: String, attempts: Int)
    /// A 2xx answer that does not have the documented shape.
    case invalidResponse(String)
    /// The audio file's format cannot be uploaded.
    case unsupportedAudio(fileName: String)

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .missingKey(let path):
            return "no OpenAI API key: set OPENAI_API_KEY, or write the key to \(path) (mode 0600)."
        case .missingKeyInSettings:
            return "no OpenAI API key: add yours in Settings, under OpenAI."
        case .keyFileUnreadable(let path, let reason):
            return "cannot read the OpenAI key file \(path): \(reason)."
        case .keyFileTooOpen(let path, let mode):
            return "the OpenAI key file \(path) has mode \(String(format: "%04o", mode)); it must be readable by you only: run 'chmod 600 \(path)'."
        case .malformedKey(let source):
            return "the OpenAI API key from \(source) contains spaces or control characters; store the key alone on one line."
        case .invalidBaseURL(let text):
            return "the base URL '\(text)' is not an http(s) URL such as https://api.openai.com/v1"
        case .badRequest(let message):
            return "OpenAI rejected the request (400): \(message)"
        case .unauthorized(let status, let message, let place):
            return "OpenAI refused the API key (\(status)): \(message) \(place.advice)"
        case .tooLarge(let bytes):
            let size = bytes.map { " (\($0) bytes)" } ?? ""
            return "the upload is too large for one request\(size); the limit is 25 MB."
        case .quotaExceeded(let code, let message):
            return "OpenAI refused the request: the account is out of quota (429 \(code)): \(message) Nothing was retried; add credit to the account, or use the local engine."
        case .http(let status, let message, let attempts):
            return "OpenAI answered \(status) after \(Plural.count(attempts, "attempt")): \(message)"
        case .transport(let message, let attempts):
            return "could not reach the OpenAI server after \(Plural.count(attempts, "attempt")): \(message)"
        case .invalidResponse(let detail):
            return "the server's answer has an unexpected shape: \(detail)"
        case .unsupportedAudio(let name):
            return "cannot upload \(name): the format is not one of wav, flac, ogg, opus, mp3, m4a, webm."
        }
    }
}
