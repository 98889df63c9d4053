import Foundation
@testable import LiveTranscriberServe
import LiveTranscriberLinux
import Testing

@Suite("serve's route table: dispatch, 404 and 405 from one declaration per route, and docs/serve.md's table")
struct WebRouteTests {
    static let router = LibraryWebAPI.router

    /// What `resolve` decided, as text: "GET /api/recordings/{id} id=x", "405 GET,HEAD" (with the methods allowed), "404".
    static func outcome(_ method: String, _ path: String, provides: (WebRoute.Service) -> Bool = { _ in true }) -> String {
        switch router.resolve(method: method, path: path, provides: provides) {
        case .route(let route, let values):
            let parameters = values.values.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            return "\(route.methods.joined(separator: ",")) \(route.pattern)\(parameters)"
        case .notAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
        case .notFound: return "404"
        }
    }

    @Test("each request takes the route it took before the table, or the same 404 or 405", arguments: [
        ("GET", "/", "GET,HEAD /"), ("HEAD", "/app.css", "GET,HEAD /app.css"), ("POST", "/", "405 GET,HEAD"), ("GET", "", "404"),
        ("GET", "/app.css/", "404"), ("DELETE", "/live.js", "405 GET,HEAD"), ("OPTIONS", "/api/recordings", "405 GET,HEAD"),
        ("GET", "/api/search", "GET,HEAD /api/search"), ("PUT", "/api/tags", "405 GET,HEAD"),
        ("POST", "/api/import", "POST /api/import"), ("GET", "/api/import", "404"),
        ("POST", "/v1/audio/transcriptions", "POST /v1/audio/transcriptions"), ("GET", "/v1/audio/transcriptions", "404"),
        ("GET", "/api/recordings/x", "GET,HEAD /api/recordings/{id} id=x"), ("GET", "/api/recordings/", "GET,HEAD /api/recordings/{id} id="),
        ("DELETE", "/api/recordings/x", "DELETE /api/recordings/{id} id=x"), ("PUT", "/api/recordings/x", "405 GET,HEAD,DELETE"),
        ("HEAD", "/api/recordings/x/audio", "GET,HEAD /api/recordings/{id}/audio id=x"), ("POST", "/api/recordings/x/audio", "405 GET,HEAD"),
        ("GET", "/api/recordings/x/export/srt", "GET,HEAD /api/recordings/{id}/export/{format} format=srt id=x"),
        ("GET", "/api/recordings/x/export/", "GET,HEAD /api/recordings/{id}/export/{format} format= id=x"),
        ("GET", "/api/recordings/x/export", "404"), ("GET", "/api/recordings/x/nope", "404"), ("GET", "/api/recordings/x/name/y", "404"),
        ("PUT", "/api/recordings/x/name", "405 POST"), ("GET", "/api/recordings/x/speakers", "405 POST"), ("GET", "/api/recordings/x/summarize", "405 POST"),
        ("POST", "/api/recordings/x/retranscribe", "POST /api/recordings/{id}/retranscribe id=x"),
        ("GET", "/api/recordings/x/retranscribe", "GET /api/recordings/{id}/retranscribe id=x"), ("HEAD", "/api/recordings/x/retranscribe", "405 POST,GET"),
        ("GET", "/api/recordings/live", "GET,HEAD /api/recordings/{id} id=live"),
        ("HEAD", "/api/live", "GET,HEAD /api/live"), ("DELETE", "/api/live", "405 GET,HEAD"), ("GET", "/api/live/events", "GET,HEAD /api/live/events"),
        ("GET", "/api/live/record", "405 POST"), ("POST", "/api/live/record/stop", "POST /api/live/record/stop"),
        ("GET", "/api/live/record/pause", "405 POST"), ("POST", "/api/live/nope", "404"),
    ])
    func dispatch(method: String, path: String, expected: String) {
        #expect(Self.outcome(method, path) == expected)
    }

    @Test("a route whose part of the server is missing is not served: 404", arguments: [
        ("GET", "/api/live"), ("POST", "/api/live/record"), ("POST", "/api/import"), ("POST", "/v1/audio/transcriptions"),
        ("GET", "/api/recordings/x/retranscribe"), ("POST", "/api/recordings/x/retranscribe"),
    ])
    func missingService(method: String, path: String) {
        #expect(Self.outcome(method, path, provides: { _ in false }) == "404")
        #expect(Self.outcome("GET", "/api/recordings/x", provides: { _ in false }) == "GET,HEAD /api/recordings/{id} id=x")
    }

    @Test("no path and method are declared twice, so declaration order never decides")
    func noOverlaps() {
        let routes = LibraryWebAPI.routes
        for (i, a) in routes.enumerated() {
            for b in routes[(i + 1)...] where a.pattern.overlaps(b.pattern) {
                #expect(Set(a.methods).isDisjoint(with: b.methods), "\(a.pattern) and \(b.pattern)")
            }
        }
    }

    @Test("each route's declared caller is the rule WebAccess enforces for its methods")
    func callers() {
        let token = String(repeating: "3f", count: 32)
        let access = WebAccess(token: token, boundHost: "127.0.0.1", port: 8750)
        for route in LibraryWebAPI.routes {
            let path = "/" + route.pattern.segments.map { segment -> String in
                switch segment {
                case .literal(let text): return text
                case .parameter: return "x"
                }
            }.joined(separator: "/")
            for method in route.methods {
                let cookie = ["host": "127.0.0.1:8750", "cookie": "\(WebAccess.cookieName)=\(token)"]
                let withCookie = access.refusal(of: WebRequest(method: method, path: path, headers: cookie)) == nil
                var both = cookie
                both[WebAccess.headerName.lowercased()] = token
                let withHeader = access.refusal(of: WebRequest(method: method, path: path, headers: both)) == nil
                let bearer = access.refusal(of: WebRequest(method: method, path: path,
                                                           headers: ["host": "127.0.0.1:8750", "authorization": "Bearer \(token)"])) == nil
                let none = access.refusal(of: WebRequest(method: method, path: path, headers: ["host": "127.0.0.1:8750"])) == nil
                #expect(withHeader && bearer && !none, "\(method) \(route.pattern)")
                #expect(withCookie == (route.caller == .tokenHolder), "\(method) \(route.pattern)")
            }
        }
    }

    @Test("docs/serve.md holds exactly the table rendered from the declarations")
    func documentedTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/serve.md")
        let lines = try String(contentsOf: docs, encoding: .utf8).components(separatedBy: "\n")
        let rendered = Self.router.markdownTable()
        let header = try #require(rendered.components(separatedBy: "\n").first)
        let starts = lines.indices.filter { lines[$0] == header }
        try #require(starts.count == 1, "docs/serve.md should hold one route table, starting '\(header)'")
        let table = lines[starts[0]...].prefix { $0.hasPrefix("|") }
        let documented = table.joined(separator: "\n") + "\n"
        #expect(documented == rendered, "docs/serve.md's route table should be:\n\(rendered)")
    }
}
