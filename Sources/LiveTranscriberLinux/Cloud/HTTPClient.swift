import Foundation
import FoundationNetworking
import LiveTranscriberCore

/// A blocking HTTP client that retries as a `RetryPolicy` says, sleeping through an injected function.
///
/// Blocking because its callers (the command line, `LanguageModel`) are synchronous. Statuses are
/// returned, not thrown: the API clients map them to `OpenAIError`. Only a transport failure that
/// outlives the retries throws.
public final class HTTPClient: @unchecked Sendable {
    /// Waits the given number of seconds; tests pass a recorder that returns at once.
    public typealias Sleep = @Sendable (Double) -> Void

    /// A response: status, headers with lower-cased names, and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Attempts made to get this response, from 1.
        public var attempts: Int
    }

    public let retryPolicy: RetryPolicy
    private let sleep: Sleep
    private let session: URLSession

    /// - Parameters:
    ///   - retryPolicy: When to retry and how long to wait.
    ///   - timeoutSeconds: Longest silence on a connection before it fails (uploads can be slow).
    ///   - sleep: How to wait between attempts; by default the thread sleeps.
    public init(retryPolicy: RetryPolicy = .openAI, timeoutSeconds: Double = 300,
                sleep: @escaping Sleep = { Thread.sleep(forTimeInterval: $0) }) {
        self.retryPolicy = retryPolicy
        self.sleep = sleep
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request`, retrying 408, 429, 5xx and transport failures.
    ///
    /// - Returns: The last response, whatever its status.
    /// - Throws: `OpenAIError.transport` when no response arrived on the last attempt allowed.
    public func send(_ request: URLRequest) throws -> Response {
        var attempt = 0
        while true {
            attempt += 1
            let outcome = perform(request)
            switch outcome {
            case .success(let response):
                let code = Self.errorCode(in: response.body)
                let decision = RetryPolicy.isRetryable(response.status, errorCode: code)
                    ? retryPolicy.decide(status: response.status, attempt: attempt, retryAfter: response.headers["retry-after"], errorCode: code)
                    : .stop
                guard case .retry(let seconds) = decision else {
                    var final = response
                    final.attempts = attempt
                    return final
                }
                sleep(seconds)
            case .failure(let error):
                guard case .retry(let seconds) = retryPolicy.decide(status: nil, attempt: attempt) else {
                    throw OpenAIError.transport(message: error.localizedDescription, attempts: attempt)
                }
                sleep(seconds)
            }
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

    private final class Box: @unchecked Sendable {
        var result: Result<Response, any Error> = .failure(URLError(.unknown))
    }

    private func perform(_ request: URLRequest) -> Result<Response, any Error> {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure(error)
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                box.result = .success(Response(status: http.statusCode, headers: headers, body: data ?? Data(), attempts: 1))
            } else {
                box.result = .failure(URLError(.badServerResponse))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return box.result
    }
}
