import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberServe
import Testing

@Suite("Web access")
struct WebAccessTests {
    let token = String(repeating: "ab", count: 32)
    var loopback: WebAccess { WebAccess(token: token, boundHost: "127.0.0.1", port: 8750) }

    func request(_ method: String = "GET", host: String? = "127.0.0.1:8750", cookie: String? = nil,
                 header: String? = nil, query: [String: String] = [:]) -> WebRequest {
        var headers: [String: String] = [:]
        if let host { headers["host"] = host }
        if let cookie { headers["cookie"] = cookie }
        if let header { headers["x-livetranscriber-token"] = header }
        return WebRequest(method: method, path: "/api/recordings", query: query, headers: headers)
    }

    @Test("a new token is 64 hex digits and differs each time")
    func newToken() {
        let first = WebAccess.newToken(), second = WebAccess.newToken()
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
        #expect(first != second)
    }

    @Test("the URL holds the token; a wildcard address is shown as loopback, IPv6 in brackets")
    func url() {
        #expect(loopback.url == "http://127.0.0.1:8750/?token=\(token)")
        #expect(WebAccess(token: "t", boundHost: "0.0.0.0", port: 1).url == "http://127.0.0.1:1/?token=t")
        #expect(WebAccess(token: "t", boundHost: "::1", port: 2).url == "http://[::1]:2/?token=t")
    }

    @Test("bound to loopback, the Host must be that address or localhost with the port", arguments: [
        ("127.0.0.1:8750", true), ("localhost:8750", true), ("LOCALHOST:8750", true),
        ("127.0.0.1:8751", false), ("127.0.0.1", false), ("evil.example:8750", false), ("192.168.1.2:8750", false), ("", false),
    ])
    func loopbackHosts(host: String, admitted: Bool) {
        #expect(loopback.admitsHost(host) == admitted)
    }

    @Test("bound to every interface, any IP address is admitted but no DNS name other than localhost", arguments: [
        ("192.168.1.20:9000", true), ("[fe80::1]:9000", true), ("localhost:9000", true), ("10.0.0.1:9001", false),
        ("attacker.example:9000", false), ("1.2.3.4.evil:9000", false), ("300.1.1.1:9000", false),
    ])
    func wildcardHosts(host: String, admitted: Bool) {
        #expect(WebAccess(token: token, boundHost: "0.0.0.0", port: 9000).admitsHost(host) == admitted)
    }

    @Test("a browser loading a page without the token gets an HTML page saying to open the printed link; the API gets one line of JSON", arguments: [
        ("/", "text/html,application/xhtml+xml", true), ("/recording/x", "text/html", true),
        ("/api/recordings", "text/html", false), ("/v1/audio/transcriptions", "text/html", false), ("/", "*/*", false), ("/", "", false),
    ])
    func tokenNeededPage(path: String, accept: String, page: Bool) throws {
        let refusal = try #require(loopback.refusal(of: WebRequest(method: "GET", path: path, headers: ["host": "127.0.0.1:8750", "accept": accept])))
        #expect(refusal.status == 401)
        #expect(refusal.header("Content-Type") == (page ? "text/html; charset=utf-8" : "application/json"))
        guard case .data(let body) = refusal.body else { Issue.record("not in memory"); return }
        let text = String(decoding: body, as: UTF8.self)
        #expect(page ? text.contains("<h1>Open the link serve printed</h1>") && !text.contains("<script")
                     : text == #"{"error":"missing or wrong access token; open the URL livetranscriber serve printed"}"# + "\n")
    }

    @Test("a read needs the token as cookie or query; a change needs it in the header too")
    func tokens() {
        #expect(loopback.refusal(of: request(cookie: "a=1; lt_token=\(token)")) == nil)
        #expect(loopback.refusal(of: request(query: ["token": token])) == nil)
        #expect(loopback.refusal(of: request())?.status == 401)
        #expect(loopback.refusal(of: request(cookie: "lt_token=\(token.dropLast())0"))?.status == 401)
        #expect(loopback.refusal(of: request("POST", cookie: "lt_token=\(token)"))?.status == 403)
        #expect(loopback.refusal(of: request("POST", header: token, query: ["token": token]))?.status == 401)
        #expect(loopback.refusal(of: request("DELETE", cookie: "lt_token=\(token)", header: token)) == nil)
        #expect(loopback.refusal(of: request(host: "evil.example:8750", cookie: "lt_token=\(token)"))?.status == 403)
        #expect(loopback.refusal(of: request(host: nil, cookie: "lt_token=\(token)"))?.status == 403)
    }

    @Test("Authorization: Bearer TOKEN, as OpenAI's clients send a key, stands for cookie and header")
    func bearer() {
        var post = request("POST")
        post.headers["authorization"] = "Bearer \(token)"
        #expect(loopback.refusal(of: post) == nil)
        post.headers["authorization"] = "Bearer wrong"
        #expect(loopback.refusal(of: post)?.status == 401)
        post.headers["authorization"] = "Bearer \(token)"
        post.headers["host"] = "evil.example:8750"
        #expect(loopback.refusal(of: post)?.status == 403)
    }

    @Test("a refusal is one line of JSON")
    func refusalBody() throws {
        let refusal = try #require(loopback.refusal(of: request()))
        guard case .data(let data) = refusal.body else { Issue.record("not in memory"); return }
        let text = String(decoding: data, as: UTF8.self)
        #expect(text == "{\"error\":\"missing or wrong access token; open the URL livetranscriber serve printed\"}\n")
        #expect(refusal.header("content-type") == "application/json")
    }

    @Test("percent-decoding keeps %00 as U+0000, never an end of the text; a stray % stays; bytes that are not UTF-8 become U+FFFD", arguments: [
        ("a%00b.wav", "a\u{0}b.wav"), ("chapter%20one", "chapter one"), ("%E2%82%AC%2f%2F", "€//"), ("100%", "100%"),
        ("%zz%4", "%zz%4"), ("%FF", "\u{FFFD}"), ("a+b", "a+b"), ("plain", "plain"), ("%01", "\u{1}"),
    ])
    func percentDecoding(sent: String, decoded: String) {
        #expect(WebRequest.percentDecoded(sent) == decoded)
    }

    @Test("once admitted, a NUL in the path or in a query argument's name or value is 400 saying where; before that the usual refusal")
    func nul() throws {
        func text(_ response: WebResponse?) -> String? {
            guard case .data(let data) = response?.body else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        let admitted = "lt_token=\(token)"
        let name = loopback.refusal(of: request("POST", cookie: admitted, header: token, query: ["name": "a\u{0}b.wav", "tags": "x\u{0}"]))
        #expect(name?.status == 400)
        #expect(text(name) == #"{"error":"the query argument 'name' holds a NUL character (%00), which no id, name, tag or value may hold"}"# + "\n")
        let key = loopback.refusal(of: request(cookie: admitted, query: ["ta\u{0}g": "work"]))
        #expect(text(key) == #"{"error":"the query argument 'ta\\u{0}g' holds a NUL character (%00), which no id, name, tag or value may hold"}"# + "\n")
        var path = request("DELETE", cookie: admitted, header: token)
        path.path = "/api/recordings/20261129-204112-aaaa\u{0}x"
        #expect(text(loopback.refusal(of: path)) == #"{"error":"the path holds a NUL character (%00), which no id, name, tag or value may hold"}"# + "\n")
        #expect(loopback.refusal(of: request(query: ["name": "a\u{0}b.wav"]))?.status == 401)
        #expect(loopback.refusal(of: request(cookie: admitted, query: ["name": "a\u{1}b.wav"])) == nil)  // judged by the value's own rule
    }

    @Test("the cookie keeps the token from scripts and other sites")
    func cookie() {
        #expect(loopback.cookie == "lt_token=\(token); Path=/; HttpOnly; SameSite=Strict")
    }
}

@Suite("Uploaded file names")
struct UploadedFileNameTests {
    @Test("the last path component, trimmed; nothing usable is nil", arguments: [
        ("meeting.wav", "meeting.wav" as String?), ("C:\\Users\\me\\talk.flac", "talk.flac"), ("../../etc/passwd", "passwd"),
        ("  notes.mp3 ", "notes.mp3"), ("..", nil), (".hidden.wav", nil), ("", nil), ("dir/", "dir"), ("a\u{0}b.wav", nil),
        ("bell\u{7}.wav", nil), (String(repeating: "é", count: 128) + ".wav", nil),
    ])
    func checked(name: String, expected: String?) {
        #expect(UploadedFileName.checked(name) == expected)
    }

    @Test("a name that cannot be kept says why", arguments: [
        ("", UploadedFileName.Problem.missing), ("dir/  ", .missing), ("..", .hidden("..")), ("C:\\x\\.hidden.wav", .hidden(".hidden.wav")),
        ("a\u{0}b.wav", .controlCharacter("\u{0}")), ("bell\u{7}.wav", .controlCharacter("\u{7}")),
        (String(repeating: "é", count: 128) + ".wav", .tooLong(bytes: 260)),
    ])
    func problem(name: String, expected: UploadedFileName.Problem) {
        #expect(throws: expected) { try UploadedFileName.check(name) }
    }
}
