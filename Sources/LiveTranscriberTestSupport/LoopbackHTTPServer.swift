import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for client tests: one connection at a time, each request
/// answered from a script (or a handler) and recorded, then the connection closed.
///
/// Understands `Content-Length` bodies and `Expect: 100-continue` (libcurl sends it for large
/// uploads). Not for anything but tests.
///
/// Stop it when the test is done (`defer { server.stop() }` right after creating it): its serving
/// thread holds it, so one never stopped keeps its thread, socket, script and recorded requests to
/// the end of the process (LeakSanitizer then reports the bodies it holds in `Data`'s tagged
/// representation as leaked).
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A request as received.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names lower-cased.
        public var headers: [String: String]
        public var body: Data
        /// The body as UTF-8 text (lossy), for assertions.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// A response to send.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data

        public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A JSON response.
        public static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }

        /// An OpenAI-style error body: `{"error": {"message": …}}`.
        public static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> Response {
            let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return json(status, "{\"error\":{\"message\":\"\(escaped)\",\"type\":\"invalid_request_error\"}}", headers: headers)
        }
    }

    private let lock = NSLock()
    private var recorded: [Request] = []
    private var script: [Response]
    private let handler: (@Sendable (Request) -> Response)?
    private let listener: Int32
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// The port the server listens on.
    public let port: UInt16

    /// Answers requests with `responses` in order; past the end, 500 "script exhausted".
    public convenience init(responses: [Response]) throws {
        try self.init(script: responses, handler: nil)
    }

    /// Answers each request with `handler(request)`.
    public convenience init(handler: @escaping @Sendable (Request) -> Response) throws {
        try self.init(script: [], handler: handler)
    }

    private init(script: [Response], handler: (@Sendable (Request) -> Response)?) throws {
        self.script = script
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    deinit { stop() }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// `http://127.0.0.1:<port>/v1`, the base URL clients are given.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    /// Every request so far, in order.
    public var requests: [Request] { lock.withLock { recorded } }

    /// Stops listening; waits until the serving thread has ended.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard wasRunning else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if lock.withLock({ stopped }) { return }
                if errno == EINTR { continue }
                return
            }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[0..<count])
            headerEnd = buffer.range(of: separator)
        }
        guard let headerEnd else { return }
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd.upperBound...])
        let expected = Int(headers["content-length"] ?? "0") ?? 0
        if headers["expect"]?.lowercased() == "100-continue" && body.count < expected {
            send(connection, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: chunk[0..<count])
        }
        let request = Request(
            method: requestLine.first.map(String.init) ?? "", path: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: body)
        let response: Response = lock.withLock {
            recorded.append(request)
            if let handler { return handler(request) }
            return script.isEmpty ? Response.error(500, "script exhausted") : script.removeFirst()
        }
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        send(connection, Data(text.utf8) + response.body)
    }

    private func send(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 408: return "Request Timeout"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
