import Foundation

/// Sends requests through an `HTTPTransport`, retrying as a `RetryPolicy` says and sleeping
/// through an injected function.
///
/// Blocking because its callers (the command line, `LanguageModel`, `CloudRetranscriber`) are
/// synchronous. Statuses are returned, not thrown: the API clients map them to `OpenAIError`. Only
/// a transport failure that outlives the retries throws.
public final class HTTPClient: Sendable {
    /// Waits the given number of seconds; tests pass a recorder that returns at once.
    public typealias Sleep = @Sendable (Double) -> Void

    /// A response: status, headers with lower-cased names, and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Attempts made to get this response, from 1.
        public var attempts: Int

        public init(status: Int, headers: [String: String], body: Data, attempts: Int) {
            self.status = status
            self.headers = headers
            self.body = body
            self.attempts = attempts
        }
    }

    public let retryPolicy: RetryPolicy
    public let transport: any HTTPTransport
    private let sleep: Sleep

    /// - Parameters:
    ///   - transport: What sends one request (URLSession on Linux and iOS).
    ///   - retryPolicy: When to retry and how long to wait.
    ///   - sleep: How to wait between attempts; by default the thread sleeps.
    public init(transport: any HTTPTransport, retryPolicy: RetryPolicy = .openAI,
                sleep: @escaping Sleep = { Thread.sleep(forTimeInterval: $0) }) {
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.sleep = sleep
    }

    /// Sends `request`, retrying 408, 429 (but quota codes), 5xx (but 501, 505) and transport failures.
    ///
    /// - Returns: The last response, whatever its status.
    /// - Throws: `OpenAIError.transport` when no response arrived on the last attempt allowed.
    public func send(_ request: HTTPRequest) throws -> Response {
        var attempt = 0
        while true {
            attempt += 1
            let response: HTTPResponse
            do {
                response = try transport.send(request)
            } catch {
                guard case .retry(let seconds) = retryPolicy.decide(status: nil, attempt: attempt) else {
                    throw OpenAIError.transport(message: error.localizedDescription, attempts: attempt)
                }
                sleep(seconds)
                continue
            }
            let code = Self.errorCode(in: response.body)
            let decision = RetryPolicy.isRetryable(response.status, errorCode: code)
                ? retryPolicy.decide(status: response.status, attempt: attempt, retryAfter: response.headers["retry-after"], errorCode: code)
                : .stop
            guard case .retry(let seconds) = decision else {
                return Response(status: response.status, headers: response.headers, body: response.body, attempts: attempt)
            }
            sleep(seconds)
        }
    }

    /// `error.code`, else `error.type`, of an OpenAI-style error body; nil for any other body.
    static func errorCode(in body: Data) -> String? {
        struct Envelope: Decodable {
            struct Detail: Decodable { var code: String?; var type: String? }
            var error: Detail?
        }
        guard !body.isEmpty, let envelope = try? JSONDecoder().decode(Envelope.self, from: body) else { return nil }
        return envelope.error?.code ?? envelope.error?.type
    }
}
