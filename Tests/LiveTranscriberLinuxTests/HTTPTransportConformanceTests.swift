import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The contract of the core's `HTTPTransport` (see its docstring), checked against the real Linux
/// transport over a loopback server. The iOS transport (Apple/App/Adapters) implements the same
/// contract over Apple's URLSession; a Mac can run these checks against it by making `transport()`
/// return that one.
@Suite("HTTPTransport contract, URLSession over loopback", .serialized)
struct HTTPTransportConformanceTests {
    func transport() -> any HTTPTransport { URLSessionHTTPTransport(timeoutSeconds: 30) }

    @Test("method, path, every header and the body arrive as given")
    func sendsAsGiven() throws {
        let server = try LoopbackHTTPServer(responses: [.json(200, "{}")])
        defer { server.stop() }
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let request = HTTPRequest(method: "POST", url: server.baseURL.appendingPathComponent("audio/transcriptions"),
                                  headers: [HTTPHeader("Content-Type", "application/octet-stream"),
                                            HTTPHeader("Authorization", "Bearer k"), HTTPHeader("X-Trace", "a b;c")],
                                  body: body)
        _ = try transport().send(request)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/v1/audio/transcriptions")
        #expect(received.headers["content-type"] == "application/octet-stream")
        #expect(received.headers["authorization"] == "Bearer k")
        #expect(received.headers["x-trace"] == "a b;c")
        #expect(received.body == body)
    }

    @Test("a 2xx answer gives its status, lower-cased header names and the body byte for byte")
    func success() throws {
        let server = try LoopbackHTTPServer(responses: [
            .init(status: 200, headers: [("Content-Type", "application/json"), ("X-Request-ID", "req_1")], body: Data(#"{"text":"é"}"#.utf8)),
        ])
        defer { server.stop() }
        let response = try transport().send(HTTPRequest(method: "POST", url: server.baseURL, body: Data("x".utf8)))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-request-id"] == "req_1")
        #expect(response.body == Data(#"{"text":"é"}"#.utf8))
    }

    @Test("4xx and 5xx answers are returned, not thrown, with their bodies and Retry-After", arguments: [400, 401, 413, 429, 500, 503])
    func errorStatuses(status: Int) throws {
        let server = try LoopbackHTTPServer(responses: [.error(status, "nope", headers: [("Retry-After", "7")])])
        defer { server.stop() }
        let response = try transport().send(HTTPRequest(method: "POST", url: server.baseURL, body: Data("x".utf8)))
        #expect(response.status == status)
        #expect(response.headers["retry-after"] == "7")
        #expect(response.body == Data(#"{"error":{"message":"nope","type":"invalid_request_error"}}"#.utf8))
    }

    @Test("one request is one attempt: the transport itself never retries")
    func noRetry() throws {
        let server = try LoopbackHTTPServer(responses: [.error(503, "busy"), .json(200, "{}")])
        defer { server.stop() }
        #expect(try transport().send(HTTPRequest(method: "POST", url: server.baseURL, body: Data("x".utf8))).status == 503)
        #expect(server.requests.count == 1)
    }

    @Test("no response (connection refused) throws")
    func refused() {
        // Nothing listens on port 1.
        #expect(throws: (any Error).self) {
            try transport().send(HTTPRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/v1")!, body: Data("x".utf8)))
        }
    }
}
