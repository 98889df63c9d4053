import Foundation

/// One HTTP request as the cloud clients build it, independent of any networking library.
public struct HTTPRequest: Sendable, Equatable {
    /// "POST", "GET"…
    public var method: String
    /// The full address, such as `https://api.openai.com/v1/audio/transcriptions`.
    public var url: URL
    /// Header fields in the order set; names as written (HTTP compares them case-insensitively).
    public var headers: [HTTPHeader]
    /// The body; empty for none.
    public var body: Data

    public init(method: String, url: URL, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One header field.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What the server answered, whatever the status.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, 100…599.
    public var status: Int
    /// Header fields with lower-cased names (`retry-after`, `content-type`); one value per name.
    public var headers: [String: String]
    /// The body as received; empty for none.
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends one HTTP request and waits for its response: the only networking the cloud clients need.
///
/// Implemented over URLSession on Linux (`URLSessionHTTPTransport`, FoundationNetworking) and on
/// iOS (`Apple/App/Adapters/URLSessionHTTPTransport.swift`). A conforming transport:
/// - sends the method, URL, every header and the body exactly as given;
/// - returns every response that arrives, 4xx and 5xx included, as an `HTTPResponse` (statuses are
///   the clients' business, never an error here), with header names lower-cased;
/// - throws only when no response arrived (connection refused, DNS, TLS, timeout); the error's
///   `localizedDescription` is shown to the user, so it must not contain the request's headers;
/// - neither retries nor caches (`HTTPClient` retries as `RetryPolicy` says).
///
/// Blocking, because its callers (`LanguageModel`, the re-transcription flow, the command line)
/// are synchronous; an app calls them off the main thread. The Linux conformance suite
/// (`HTTPTransportConformanceTests`) states the contract as tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response.
    ///
    /// - Throws: Any error, only when no response arrived.
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}
