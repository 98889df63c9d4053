import Foundation

/// One HTTP request as `livetranscriber serve` hands it to the library's web API, whatever
/// server library received it.
public struct WebRequest: Sendable, Equatable {
    /// "GET", "POST", "DELETE"…, upper case.
    public var method: String
    /// The path without the query string, percent-decoded ("/api/recordings/20261129-204112-3f9a").
    public var path: String
    /// Query arguments, decoded; the first value wins when a name repeats.
    public var query: [String: String]
    /// Header fields, names in lower case ("host", "cookie", "range").
    public var headers: [String: String]
    /// The request body (at most `WebAccess.maximumBodyBytes`; the server refuses longer ones).
    public var body: Data

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the cookie `name` in the Cookie header, if any.
    public func cookie(_ name: String) -> String? {
        guard let header = headers["cookie"] else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// One HTTP response: a status, header fields, and a body held in memory or read from a file.
public struct WebResponse: Sendable, Equatable {
    /// What the body is.
    public enum Body: Sendable, Equatable {
        /// Bytes in memory.
        case data(Data)
        /// `length` bytes of the file at `path`, from byte `offset` (an audio file, or a range of it).
        case file(path: String, offset: UInt64, length: UInt64)
        /// Bytes sent as they are produced, length unknown (server-sent events).
        case stream(WebStream)
    }

    /// The status code (200, 206, 404…).
    public var status: Int
    /// Header fields in the order they are sent (Content-Type among them; Content-Length is the server's).
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int, headers: [(String, String)] = [], body: Body = .data(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body: `value` encoded on one line, keys sorted, dates in ISO 8601.
    public static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> WebResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("{\"error\":\"the answer could not be encoded\"}".utf8)
        return WebResponse(status: status, headers: [("Content-Type", "application/json")], body: .data(data + Data("\n".utf8)))
    }

    /// A refused request: `status` (a 4xx or 5xx) with `{"error": message}` on one line.
    public static func error(_ status: Int, _ message: String) -> WebResponse {
        json(["error": message], status: status)
    }

    /// The value of the first header field called `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    public static func == (lhs: WebResponse, rhs: WebResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
    }
}

/// A response body produced while it is sent, such as a stream of server-sent events: the server
/// calls `next` on the connection's thread again and again, each call waiting as long as it
/// needs for the next bytes, until it returns nil (the end of the body).
public final class WebStream: Sendable, Equatable {
    /// The next bytes of the body (never empty), or nil at its end. May block.
    public let next: @Sendable () -> Data?

    public init(next: @escaping @Sendable () -> Data?) {
        self.next = next
    }

    /// Two streams are equal only when they are the same stream.
    public static func == (lhs: WebStream, rhs: WebStream) -> Bool { lhs === rhs }
}
