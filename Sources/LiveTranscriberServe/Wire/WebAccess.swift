import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// Who may use `livetranscriber serve`: the rules every request passes before anything is read
/// or changed (docs/serve.md, "Security").
///
/// - The Host header must name the address the server is bound to, by IP address or as
///   "localhost", with its port: a page from another site that a DNS name was pointed at this
///   machine (DNS rebinding) sends its own name and is refused.
/// - The access token (random, in the URL the server prints) must come with every request, in the
///   `lt_token` cookie or as `?token=`; a request that changes something (any method but GET and
///   HEAD) must also carry it in the `X-LiveTranscriber-Token` header, which a form or link on
///   another site cannot send. `Authorization: Bearer TOKEN` (how OpenAI's clients send a key)
///   counts as both.
public struct WebAccess: Sendable, Equatable {
    /// The cookie that keeps the token once the printed URL was opened.
    public static let cookieName = "lt_token"
    /// The header a changing request carries the token in.
    public static let headerName = "X-LiveTranscriber-Token"
    /// The largest request body read, in bytes (an upload of audio): 512 MiB.
    public static let maximumBodyBytes = 512 * 1024 * 1024

    /// The secret, 64 hex digits.
    public let token: String
    /// The address the server is bound to ("127.0.0.1", "0.0.0.0", "::1").
    public let boundHost: String
    /// The TCP port the server listens on.
    public let port: Int

    public init(token: String, boundHost: String, port: Int) {
        self.token = token
        self.boundHost = boundHost
        self.port = port
    }

    /// A new random token: 32 bytes from the system's secure generator, as 64 hex digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The URL to open: `http://HOST:PORT/?token=TOKEN`, the host as a browser writes it
    /// ("127.0.0.1"; an IPv6 address in brackets; "0.0.0.0" shown as 127.0.0.1, which reaches it).
    public var url: String {
        let shown = boundHost == "0.0.0.0" ? "127.0.0.1" : boundHost == "::" ? "::1" : boundHost
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/?token=\(token)"
    }

    /// True when `host` (the Host header's value) names this server: "ADDRESS:PORT" with this
    /// server's port, where ADDRESS is the bound address, "localhost" when bound to a loopback
    /// or wildcard address, or, when bound to a wildcard address (0.0.0.0, ::), any IP address.
    public func admitsHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        let name: String
        let portText: String
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = String(host[host.index(after: host.startIndex)..<close])
            let rest = host[host.index(after: close)...]
            guard rest.hasPrefix(":") else { return false }
            portText = String(rest.dropFirst())
        } else {
            guard let colon = host.lastIndex(of: ":") else { return false }
            name = String(host[..<colon])
            portText = String(host[host.index(after: colon)...])
        }
        guard Int(portText) == port else { return false }
        let wildcard = boundHost == "0.0.0.0" || boundHost == "::"
        let loopback = boundHost.hasPrefix("127.") || boundHost == "::1"
        if name == boundHost.lowercased() { return true }
        if name == "localhost" { return wildcard || loopback }
        return wildcard && Self.isIPAddress(name)
    }

    /// Why `request` is refused (a 4xx response with one line of JSON), or nil when it may go on.
    /// `request.query["token"]` counts as the token for a GET, so the printed URL works before
    /// the cookie is set. Once admitted, a request whose path or query holds a NUL (`%00`) is 400:
    /// no id, name, tag, word or number holds one, and text handed to C (SQLite, the file system)
    /// would end there, so "name=a%00b.wav" would be read as "a".
    public func refusal(of request: WebRequest) -> WebResponse? {
        if let refused = accessRefusal(of: request) { return refused }
        if let place = request.placeHoldingNUL {
            return .error(400, "\(place) holds a NUL character (%00), which no id, name, tag or value may hold")
        }
        return nil
    }

    /// Why `request` may not use the server at all: a wrong Host, no token, a change without the header.
    private func accessRefusal(of request: WebRequest) -> WebResponse? {
        guard admitsHost(request.headers["host"]) else {
            return .error(403, "the Host header does not name this server; open the URL livetranscriber serve printed")
        }
        // OpenAI's clients send their API key as a bearer token: this token there stands for both
        // the cookie and the header (no other site's page can set Authorization without CORS).
        if let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
           Self.equal(String(authorization.dropFirst("Bearer ".count)), token) {
            return nil
        }
        let reading = request.method == "GET" || request.method == "HEAD"
        let presented = request.cookie(Self.cookieName) ?? (reading ? request.query["token"] : nil)
        guard let presented, Self.equal(presented, token) else {
            // A browser opening the page (a tab kept from an earlier run of serve, whose token
            // changed) gets a page that says what to do, not a line of JSON.
            if reading, Self.isPageLoad(request) { return Self.tokenNeededPage }
            return .error(401, "missing or wrong access token; open the URL livetranscriber serve printed")
        }
        if !reading {
            guard let header = request.headers[Self.headerName.lowercased()], Self.equal(header, token) else {
                return .error(403, "a request that changes the library needs the access token in the \(Self.headerName) header")
            }
        }
        return nil
    }

    /// True for a browser loading a page: not the API (`/api/`, `/v1/`), and HTML accepted.
    static func isPageLoad(_ request: WebRequest) -> Bool {
        !request.path.hasPrefix("/api/") && !request.path.hasPrefix("/v1/")
            && (request.headers["accept"] ?? "").contains("text/html")
    }

    /// 401 for a page load without the token: a short HTML page (`Page/token-needed.html`: no script
    /// or style, nothing from the library; serve's content security policy allows neither inline)
    /// that says to open the address `serve` printed.
    static let tokenNeededPage = WebResponse(
        status: 401, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: .data(Data(PackageResources.token_needed_html)))

    /// The Set-Cookie value that keeps the token: HttpOnly, SameSite=Strict, for the whole site.
    public var cookie: String { "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// Compares in time that does not depend on where the strings differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// True for a dotted IPv4 address or an IPv6 address (hex digits, colons and dots only).
    public static func isIPAddress(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }) {
            return true
        }
        return name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
