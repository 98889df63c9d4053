import Foundation

/// Where and as whom to call an OpenAI-compatible API.
public struct OpenAIEndpoint: Sendable {
    /// The API root, such as `https://api.openai.com/v1`; paths like `chat/completions` go under it.
    public var baseURL: URL
    /// The key; nil for a local OpenAI-compatible server that needs none (no Authorization header).
    public var apiKey: OpenAIAPIKey?

    public init(baseURL: URL, apiKey: OpenAIAPIKey?) {
        self.baseURL = baseURL
        self.apiKey = apiKey
    }

    /// OpenAI's public API root.
    public static let defaultBaseURL = URL(string: "https://api.openai.com/v1")!

    /// The base URL from `--base-url`, else `OPENAI_BASE_URL`, else OpenAI's.
    ///
    /// - Throws: `OpenAIError.invalidBaseURL` naming the value when it is not an http(s) URL.
    public static func baseURL(option: String?, environment: [String: String]) throws -> URL {
        guard let text = option ?? environment["OPENAI_BASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return defaultBaseURL
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw OpenAIError.invalidBaseURL(text)
        }
        return url
    }

    /// A POST request to `path` under the base URL, with the Authorization header when there is a key.
    func request(_ path: String, contentType: String, body: Data) -> HTTPRequest {
        var headers = [HTTPHeader("Content-Type", contentType), HTTPHeader("Accept", "application/json")]
        if let apiKey { headers.append(HTTPHeader("Authorization", apiKey.authorizationHeader)) }
        return HTTPRequest(method: "POST", url: baseURL.appendingPathComponent(path), headers: headers, body: body)
    }

    /// Maps a non-2xx response to an error, with the server's message redacted.
    func check(_ response: HTTPClient.Response) throws {
        guard !(200...299).contains(response.status) else { return }
        let message = redact(Self.serverMessage(response.body))
        switch response.status {
        case 400: throw OpenAIError.badRequest(message: message)
        case 401, 403: throw OpenAIError.unauthorized(status: response.status, message: message, keyPlace: apiKey?.place ?? .environmentOrFile)
        case 413: throw OpenAIError.tooLarge(bytes: nil)
        case 429 where HTTPClient.errorCode(in: response.body).map(RetryPolicy.permanentErrorCodes.contains) == true:
            throw OpenAIError.quotaExceeded(code: HTTPClient.errorCode(in: response.body) ?? "", message: message)
        default: throw OpenAIError.http(status: response.status, message: message, attempts: response.attempts)
        }
    }

    func redact(_ text: String) -> String {
        apiKey?.redact(text) ?? SecretRedactor.redact(text, key: nil)
    }

    /// `error.message` of an OpenAI error body, else the body's first 200 characters.
    static func serverMessage(_ body: Data) -> String {
        struct Envelope: Decodable {
            struct Detail: Decodable { var message: String? }
            var error: Detail?
        }
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: body), let message = envelope.error?.message {
            return message
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "(no message)" : text
    }
}
