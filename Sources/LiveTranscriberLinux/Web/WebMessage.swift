import Foundation
import LiveTranscriberCore

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

    /// `text` (a path or a query argument's name or value, as sent) with every `%HH` decoded to
    /// its byte: the one decoding of the server (`MicroHTTPServer` hands the request target over
    /// undecoded). `%00` becomes U+0000 and stays in the text, so the text is never cut there
    /// ("a%00b" is "a\u{0}b", never "a") and `WebAccess` refuses it; a `%` not followed by two hex
    /// digits is kept as it is; bytes that are not UTF-8 become U+FFFD. `+` is left alone (the
    /// server turns it into a space in query arguments, as forms send a space).
    public static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Where the request holds a NUL (U+0000, sent as `%00`): "the path", "the query argument
    /// 'name'" (the first such name in sorted order), or nil when it holds none.
    public var placeHoldingNUL: String? {
        if path.unicodeScalars.contains("\0") { return "the path" }
        let names = query.filter { $0.key.unicodeScalars.contains("\0") || $0.value.unicodeScalars.contains("\0") }.keys.sorted()
        return names.first.map { "the query argument '\(VisibleText.escaped($0))'" }
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
