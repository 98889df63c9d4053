import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The JSON API of `livetranscriber serve` (docs/serve.md) against the real server on a loopback
/// port, over a real library in a temporary folder.
@Suite("Serve: JSON API", .serialized)
struct ServeAPITests {
    let library: ServedLibrary
    let server: RunningServer

    init() throws {
        library = try ServedLibrary()
        server = try RunningServer(library)
    }

    func ids(_ reply: HTTPReply, _ key: String = "recordings") throws -> [String] {
        try #require(try reply.json()[key] as? [[String: Any]]).map { $0["id"] as? String ?? "" }
    }

    @Test("list: newest first, a page at a time, by tag in any case, each with its date, duration, tags")
    func list() throws {
        let all = try server.get("/api/recordings")
        #expect(all.status == 200)
        #expect(all.headers["content-type"] == "application/json")
        #expect(try ids(all) == [library.tagged.id, library.short.id, library.long.id])
        let first = try #require(try all.json()["recordings"] as? [[String: Any]]).last!
        #expect(first["name"] as? String == "Sense and Sensibility")
        #expect(first["date"] as? String == "2026-11-29 20:41")
        #expect(first["durationText"] as? String == "0:24")
        #expect(first["tags"] as? [String] == ["austen", "books"])

        let second = try server.get("/api/recordings?limit=1&offset=1")
        #expect(try ids(second) == [library.short.id])
        let page = try #require(try second.json()["page"] as? [String: Any])
        #expect(page["next"] as? Int == 2 && page["previous"] as? Int == 0 && page["label"] as? String == "2\u{2013}2")

        #expect(try ids(try server.get("/api/recordings?tag=WORK")) == [library.tagged.id, library.short.id])
        #expect(try server.get("/api/tags").json()["tags"] as? [String] == ["austen", "books", "Work"])
    }

    @Test("search: the core's search through the store, each place with its time and its matches marked")
    func search() throws {
        let reply = try server.get("/api/search?q=amiable")
        #expect(reply.status == 200)
        let results = try #require(try reply.json()["results"] as? [[String: Any]])
        #expect(results.count == 1)
        let places = try #require(results[0]["places"] as? [[String: Any]])
        #expect(places.map { $0["time"] as? String } == ["0:15", "0:21"])
        #expect(places.map { $0["start"] as? Double } == [library.segments[3].startSeconds, library.segments[4].startSeconds])
        let runs = try #require(places[1]["runs"] as? [[String: Any]])
        #expect(runs.map { $0["text"] as? String } == ["he might even have been made ", "amiable", " himself"])
        #expect(runs.map { $0["match"] as? Bool } == [false, true, false])
        #expect(try ids(try server.get("/api/search?q=budget&tag=austen"), "results").isEmpty)
        // A tag filters across pages: every page counts only the results that have the tag.
        func found(_ path: String) throws -> [String] {
            try #require(try server.get(path).json()["results"] as? [[String: Any]]).map { ($0["recording"] as? [String: Any])?["id"] as? String ?? "" }
        }
        let everything = try found("/api/search?q=en")
        #expect(Set(everything) == [library.long.id, library.short.id, library.tagged.id])
        let work = everything.filter { $0 != library.long.id }
        #expect(try found("/api/search?q=en&limit=1&tag=work") == [work[0]])
        #expect(try found("/api/search?q=en&limit=1&offset=1&tag=work") == [work[1]])
        #expect(try found("/api/search?q=en&limit=1&offset=2&tag=work").isEmpty)
        let blank = try server.get("/api/search?q=%20")
        #expect(blank.status == 400 && blank.text == "{\"error\":\"give the words to find as q\"}\n")
    }

    @Test("show: rows with their words and the highlight steps the core computed")
    func show() throws {
        let reply = try server.get("/api/recordings/\(library.long.id)")
        #expect(reply.status == 200)
        let transcript = try #require(try reply.json()["transcript"] as? [String: Any])
        let rows = try #require(transcript["rows"] as? [[String: Any]])
        #expect(rows.count == 5)
        #expect(rows.map { $0["time"] as? String } == ["0:00", "0:07", "0:10", "0:15", "0:21"])
        #expect(rows[1]["words"] as? [String] == ["he", "was", "not", "an", "ill", "disposed", "young", "man"])
        let steps = try #require(transcript["steps"] as? [[String: Any]])
        let expected = PlaybackTranscript(library.segments).steps
        #expect(steps.count == expected.count)
        // Word times as stored (JSON keeps the shortest form of each number), to a nanosecond.
        #expect(zip(steps, expected).allSatisfy { abs(($0["start"] as? Double ?? -1) - $1.start) < 1e-9 && $0["row"] as? Int == $1.row && $0["word"] as? Int == $1.word })
        #expect(try reply.json()["exports"] as? [String] == ["txt", "md", "srt", "vtt", "json"])
    }

    @Test("ids are checked before the store builds a path: unsafe ids are refused, prefixes and 'latest' are not ids", arguments: [
        ("/api/recordings/.hidden", 400), ("/api/recordings/..", 400), ("/api/recordings/%2E%2E%2Fsecrets", 404),
        ("/api/recordings/latest", 400), ("/api/recordings/20261129-2041", 404), ("/api/recordings/nope/audio", 404),
        ("/api/recordings/..%2F..%2Fetc%2Fpasswd/audio", 404), ("/api/nothing", 404),
    ])
    func badIDs(path: String, status: Int) throws {
        let reply = try server.get(path)
        #expect(reply.status == status)
        #expect(reply.text.hasPrefix("{\"error\":\"") && reply.text.hasSuffix("\"}\n") && reply.text.filter { $0 == "\n" }.count == 1)
    }

    @Test("audio: the whole file, and the first, a middle and the last byte by HTTP Range; a range past the end is 416")
    func audioRanges() throws {
        let file = try Data(contentsOf: library.audioFile(library.long))
        let path = "/api/recordings/\(library.long.id)/audio"
        let whole = try server.get(path)
        #expect(whole.status == 200 && whole.body == file)
        #expect(whole.headers["content-type"] == "audio/wav" && whole.headers["accept-ranges"] == "bytes")
        let middle = file.count / 2
        for (range, first, last) in [("bytes=0-0", 0, 0), ("bytes=\(middle)-\(middle + 9)", middle, middle + 9), ("bytes=-1", file.count - 1, file.count - 1)] {
            let part = try server.get(path, headers: ["Range": range])
            #expect(part.status == 206)
            #expect(part.headers["content-range"] == "bytes \(first)-\(last)/\(file.count)")
            #expect(part.headers["content-length"] == "\(last - first + 1)")
            #expect(part.body == file[first...last])
        }
        let past = try server.get(path, headers: ["Range": "bytes=\(file.count)-"])
        #expect(past.status == 416)
        #expect(past.headers["content-range"] == "bytes */\(file.count)")
        #expect(past.text == "{\"error\":\"the range 'bytes=\(file.count)-' is outside the audio's \(file.count) bytes\"}\n")
        let head = try server.request("HEAD", path)
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(file.count)")
    }

    @Test("export: every format as a download, the same document 'export' writes", arguments: ExportFormat.allCases)
    func export(format: ExportFormat) throws {
        let reply = try server.get("/api/recordings/\(library.tagged.id)/export/\(format.rawValue)")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == format.mediaType)
        #expect(reply.headers["content-disposition"]
            == "attachment; filename=\"Team sync_ Q3_Q4.\(format.rawValue)\"; filename*=UTF-8''Team%20sync%5F%20Q3%5FQ4%2E\(format.rawValue)")
        let cli = library.library.run("export", library.tagged.id, "--format", format.rawValue)
        #expect(cli.exitCode == 0)
        #expect(reply.text == cli.stdout)
        #expect(try server.get("/api/recordings/\(library.tagged.id)/export/doc").status == 400)
    }

    @Test("rename, tags and delete change the library; delete moves the folder to the trash")
    func changes() throws {
        let renamed = try server.post("/api/recordings/\(library.short.id)/name", json: #"{"name":"Budget 2027"}"#)
        #expect(renamed.status == 200)
        let tagged = try server.post("/api/recordings/\(library.short.id)/tags", json: #"{"add":["finance, q4"],"remove":["WORK"]}"#)
        #expect(tagged.status == 200)
        let shown = library.library.run("show", library.short.id, "--json")
        #expect(shown.stdout.contains(#""name" : "Budget 2027""#) || shown.stdout.contains(#""name":"Budget 2027""#))
        #expect(library.library.run("tag", library.short.id).stdout == "Tags of \(library.short.id): finance, q4\n")

        let deleted = try server.request("DELETE", "/api/recordings/\(library.short.id)")
        #expect(deleted.status == 200 && deleted.text == "{\"id\":\"\(library.short.id)\",\"trashed\":true}\n")
        #expect(FileManager.default.fileExists(atPath: library.library.url.appendingPathComponent("trash/\(library.short.id)").path))
        #expect(try server.get("/api/recordings/\(library.short.id)").status == 404)
        #expect(try server.get("/api/recordings/\(library.short.id)").text == #"{"error":"no recording has the id '\#(library.short.id)'"}"# + "\n")
        #expect(try server.get("/api/recordings/20261129-2041").text == #"{"error":"no recording has the id '20261129-2041'"}"# + "\n")
    }

    @Test("bad changes get 4xx with one line of JSON and change nothing", arguments: [
        ("POST", "name", #"{"name":"   "}"#, 400), ("POST", "name", "not json", 400), ("POST", "tags", #"{"add":["a\u0007b"]}"#, 400),
        ("PUT", "name", #"{"name":"x"}"#, 405), ("POST", "audio", "", 405),
        ("POST", "name", #"{"name":"x","nam":"y"}"#, 400), ("POST", "tags", #"{"ad":["x"]}"#, 400),
        ("POST", "speakers", #"{"speaker":"S1","name":"A","color":"red"}"#, 400), ("POST", "retranscribe", #"{"translat":true}"#, 400),
    ])
    func badChanges(method: String, endpoint: String, body: String, status: Int) throws {
        let before = try Data(contentsOf: library.library.url.appendingPathComponent("recordings/\(library.long.id)/metadata.json"))
        let reply = try server.request(method, "/api/recordings/\(library.long.id)/\(endpoint)", body: Data(body.utf8))
        #expect(reply.status == status)
        #expect(reply.text.hasPrefix("{\"error\":") && reply.text.filter { $0 == "\n" }.count == 1)
        #expect(try Data(contentsOf: library.library.url.appendingPathComponent("recordings/\(library.long.id)/metadata.json")) == before)
        #expect(try server.get("/api/recordings/\(library.long.id)/retranscribe").status == 404)  // no job was started
    }

    @Test("a damaged translation.json does not hide the recording: it is shown with its transcript and says so; only the translated export fails")
    func damagedTranslation() throws {
        let id = library.long.id
        let file = library.library.url.appendingPathComponent("recordings/\(id)/translation.json")
        try Data("{not json".utf8).write(to: file)
        let shown = try server.get("/api/recordings/\(id)")
        #expect(shown.status == 200)
        let answer = try shown.json()
        #expect(answer["translation"] == nil)
        #expect(answer["translationUnreadable"] as? String
            == "the library file \(file.path) is unreadable: The given data was not valid JSON.")
        #expect(((answer["transcript"] as? [String: Any])?["rows"] as? [Any])?.count == 5)
        #expect(try server.get("/api/recordings/\(id)/export/txt?transcript=translated").status == 500)
        #expect(try server.get("/api/recordings/\(id)/export/txt").status == 200)
    }

    @Test("a body key a request does not take is named in the 400, never ignored (a misspelt translate once started a transcribe-again)")
    func unknownBodyKey() throws {
        let reply = try server.post("/api/recordings/\(library.long.id)/retranscribe", json: #"{"translat": true}"#)
        #expect(reply.status == 400)
        #expect(reply.text == #"{"error":"the body has a key this request does not take, 'translat'; it takes 'language', 'translate' (see docs/serve.md)"}"# + "\n")
        let record = try server.post("/api/live/record", json: #"{"nme": "x"}"#)
        #expect(record.status == 400)
        #expect(record.text == #"{"error":"the body has a key this request does not take, 'nme'; it takes 'name', 'language', 'tags' (see docs/serve.md)"}"# + "\n")
    }

    @Test("the token: the printed URL sets the cookie; without it nothing is answered; changes need the header too")
    func token() throws {
        let opened = try HTTPReply.send(port: server.port, method: "GET", path: "/?token=\(server.token)", headers: ["Host": "127.0.0.1:\(server.port)"])
        #expect(opened.status == 303 && opened.headers["location"] == "/")
        #expect(opened.headers["set-cookie"] == "lt_token=\(server.token); Path=/; HttpOnly; SameSite=Strict")
        let page = try server.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains(#"<meta name="lt-token" content="\#(server.token)">"#))
        for path in ["/", "/app.js", "/api/recordings", "/api/recordings/\(library.long.id)/audio"] {
            let refused = try HTTPReply.send(port: server.port, method: "GET", path: path, headers: ["Host": "127.0.0.1:\(server.port)"])
            #expect(refused.status == 401)
            #expect(refused.text == "{\"error\":\"missing or wrong access token; open the URL livetranscriber serve printed\"}\n")
        }
        let wrong = try server.get("/api/recordings", headers: ["Cookie": "lt_token=\(String(repeating: "0", count: 64))"])
        #expect(wrong.status == 401)
        // A change with the cookie (which a browser sends on a cross-site form too) but no header.
        let forged = try HTTPReply.send(port: server.port, method: "POST", path: "/api/recordings/\(library.long.id)/name",
                                        headers: ["Host": "127.0.0.1:\(server.port)", "Cookie": "lt_token=\(server.token)"],
                                        body: Data(#"{"name":"forged"}"#.utf8))
        #expect(forged.status == 403)
        #expect(library.library.run("show", library.long.id).stdout.hasPrefix("Sense and Sensibility\n"))
    }

    @Test("the Host header must name the bound address (DNS rebinding); no CORS headers are ever sent", arguments: [
        "evil.example", "127.0.0.1.nip.io", "localhost:1",
    ])
    func host(host: String) throws {
        let reply = try server.get("/api/recordings", headers: ["Host": host.contains(":") ? host : "\(host):\(server.port)", "Origin": "http://evil.example"])
        #expect(reply.status == 403)
        #expect(reply.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") })
        let local = try server.get("/api/recordings", headers: ["Host": "localhost:\(server.port)", "Origin": "http://evil.example"])
        #expect(local.status == 200)
        #expect(local.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") })
        let preflight = try server.request("OPTIONS", "/api/recordings", headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "DELETE"])
        #expect(preflight.status == 405 && preflight.headers["access-control-allow-origin"] == nil)
        #expect(preflight.headers["allow"] == "GET, HEAD")  // RFC 9110: a 405 says what the path takes
        #expect(try server.request("PUT", "/api/recordings/\(library.long.id)").headers["allow"] == "GET, HEAD, DELETE")
    }

    @Test("a body over the limit is refused with 413 before it is read, and changes nothing")
    func uploadBound() throws {
        let small = try RunningServer(library, maximumBodyBytes: 1_024)
        let before = try Data(contentsOf: library.library.url.appendingPathComponent("recordings/\(library.long.id)/metadata.json"))
        let big = #"{"name":""# + String(repeating: "x", count: 2_000) + #""}"#
        let reply = try small.post("/api/recordings/\(library.long.id)/name", json: big)
        #expect(reply.status == 413)
        #expect(reply.text == "{\"error\":\"the request body is larger than 1024 bytes\"}\n")
        #expect(try Data(contentsOf: library.library.url.appendingPathComponent("recordings/\(library.long.id)/metadata.json")) == before)
        #expect(try small.post("/api/recordings/\(library.long.id)/name", json: #"{"name":"Fits"}"#).status == 200)
    }

    @Test("import by upload: the core's import through the same engine and store; the same audio again is refused; bad uploads change nothing")
    func upload() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav"))
        let imported = try server.request("POST", "/api/import?name=C%3A%5Cclips%5Cchapter%20one.wav&tags=upload,%20austen", body: file)
        #expect(imported.status == 200, "\(imported.text)")
        let recording = try #require(try imported.json()["recording"] as? [String: Any])
        #expect(recording["name"] as? String == "chapter one")
        #expect(recording["tags"] as? [String] == ["upload", "austen"])
        #expect(recording["durationText"] as? String == "0:02")
        #expect(try imported.json()["segments"] as? Int == 1)
        let id = try #require(recording["id"] as? String)
        #expect(try ids(try server.get("/api/recordings")).first == id)
        let shown = library.library.run("show", id)
        #expect(shown.stdout.contains("young man"), "\(shown.stdout)")

        let again = try server.request("POST", "/api/import?name=copy.wav", body: file)
        #expect(again.status == 409)
        #expect(again.text == "{\"error\":\"it is already in the library as \(id) 'chapter one'\"}\n")
        let junk = try server.request("POST", "/api/import?name=junk.wav", body: Data("not audio".utf8))
        #expect(junk.status == 422)
        #expect(junk.text.hasPrefix("{\"error\":\"junk.wav is not an audio file this tool can read"), "\(junk.text)")
        let dots = try server.request("POST", "/api/import?name=..", body: file)
        #expect(dots.status == 400)
        #expect(dots.text == #"{"error":"the file's name '..' starts with '.'; give the audio file's own name (such as name=meeting.wav)"}"# + "\n")
        let long = try server.request("POST", "/api/import?name=\(String(repeating: "y", count: 300)).wav", body: file)
        #expect(long.status == 400)
        #expect(long.text == #"{"error":"the file's name is 304 bytes long; a file name has at most 255"}"# + "\n")
        let bell = try server.request("POST", "/api/import?name=bell%07.wav", body: file)
        #expect(bell.status == 400)
        #expect(bell.text == #"{"error":"the file's name holds a control character (U+0007); give the audio file's own name"}"# + "\n")
        #expect(try server.request("POST", "/api/import?name=", body: file).text
            == #"{"error":"give the file's name as name (such as name=meeting.wav)"}"# + "\n")
        // A header stating 1 Hz: refused before anything is transcribed (it would be 4:26:40 of audio).
        let slow = try server.request("POST", "/api/import?name=slow.wav", body: WAVFixture.make(sampleRate: 1, audio: file.dropFirst(44).prefix(32_000)))
        #expect(slow.status == 422)
        #expect(slow.text.hasSuffix(#"slow.wav states a sample rate of 1 Hz; audio from 1000 to 384000 Hz can be read"}"# + "\n"), "\(slow.text)")
        #expect(try server.request("POST", "/api/import?name=a.wav").status == 400)
        #expect(library.library.recordingFolders.count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.uploads.path).isEmpty)
    }

    @Test("a NUL (%00) in a query argument or the path is 400 as %01 is, never cut off there, and changes nothing", arguments: [
        ("POST", "/api/import?name=a%00b.wav", "the query argument 'name'"),
        ("POST", "/api/import?name=a.wav&tags=a%00b", "the query argument 'tags'"),
        ("GET", "/api/recordings?tag=work%00x", "the query argument 'tag'"),
        ("GET", "/api/search?q=budget%00x", "the query argument 'q'"),
        ("DELETE", "/api/recordings/ID%00x", "the path"),
        ("POST", "/api/recordings/ID%00/name", "the path"),
    ])
    func nul(method: String, path: String, place: String) throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav"))
        let body = path.hasPrefix("/api/import") ? file : Data(#"{"name":"Cut"}"#.utf8)
        let reply = try server.request(method, path.replacingOccurrences(of: "ID", with: library.long.id), body: body)
        #expect(reply.status == 400)
        #expect(reply.text == #"{"error":"\#(place) holds a NUL character (%00), which no id, name, tag or value may hold"}"# + "\n")
        #expect(library.library.recordingFolders == [library.long.id, library.short.id, library.tagged.id])
        #expect(library.library.run("show", library.long.id).stdout.hasPrefix("Sense and Sensibility\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.uploads.path).isEmpty)
    }

    @Test("query arguments are decoded once: '+' is a space, %2B a plus, %01 a control character the name rule refuses")
    func queryDecoding() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav"))
        let control = try server.request("POST", "/api/import?name=a%01b.wav", body: file)
        #expect(control.status == 400)
        #expect(control.text == #"{"error":"the file's name holds a control character (U+0001); give the audio file's own name"}"# + "\n")
        let imported = try server.request("POST", "/api/import?name=chapter+one%2B.wav&tags=a+b", body: file)
        #expect(imported.status == 200, "\(imported.text)")
        let recording = try #require(try imported.json()["recording"] as? [String: Any])
        #expect(recording["name"] as? String == "chapter one+")
        #expect(recording["tags"] as? [String] == ["a b"])
    }

    @Test("a recording whose audio file was removed by hand: its answer says so, its audio and transcribe again are 410, the same upload's 409 says so")
    func missingAudio() throws {
        let file = try Data(contentsOf: library.audioFile(library.short))
        try FileManager.default.removeItem(at: library.audioFile(library.short))
        let id = library.short.id
        let sentence = "\(id) 'Budget review': its audio file is missing, so it cannot be played or transcribed again"
        let shown = try server.get("/api/recordings/\(id)")
        #expect(shown.status == 200)
        #expect(try shown.json()["audioMissing"] as? String == "its audio file is missing, so it cannot be played or transcribed again")
        #expect(try server.get("/api/recordings/\(library.long.id)").json().keys.sorted() == ["exports", "recording", "transcript"])
        let audio = try server.get("/api/recordings/\(id)/audio")
        #expect(audio.status == 410)
        #expect(audio.text == "{\"error\":\"\(sentence)\"}\n")
        let again = try server.request("POST", "/api/recordings/\(id)/retranscribe")
        #expect(again.status == 410)
        #expect(again.text == "{\"error\":\"\(sentence)\"}\n")
        #expect(try server.get("/api/recordings/\(id)/retranscribe").status == 404)  // no job was started
        let upload = try server.request("POST", "/api/import?name=copy.wav", body: file)
        #expect(upload.status == 409)
        #expect(upload.text == "{\"error\":\"it is already in the library as \(id) 'Budget review', "
            + "but its audio file is missing, so it cannot be played or transcribed again\"}\n")
        #expect(library.library.recordingFolders.count == 3)
    }

    @Test("summarize: the core's use case with the offline summarizer; the summary and tags are saved as 'summarize' saves them")
    func summarize() throws {
        let reply = try server.request("POST", "/api/recordings/\(library.long.id)/summarize")
        #expect(reply.status == 200, "\(reply.text)")
        let summary = try #require(try reply.json()["summary"] as? String)
        let tags = try #require(try reply.json()["tags"] as? [String])
        let recording = try #require(try reply.json()["recording"] as? [String: Any])
        #expect(recording["summary"] as? String == summary)
        let other = try ServedLibrary()
        #expect(other.library.run("summarize", other.long.id).stdout == summary + "\n" + "Tags: " + (tags.isEmpty ? "(none)" : tags.joined(separator: ", ")) + "\n")
        let empty = try server.request("POST", "/api/recordings/\(library.tagged.id)/summarize")
        #expect(empty.status == 422 && empty.text == "{\"error\":\"'Team sync: Q3/Q4' has no transcript text to summarize.\"}\n")
    }

    @Test("translate and the translated export refuse what cannot be done: 400 with pocketsphinx and no job, 404 for a translation not made, 400 for an unknown transcript")
    func translationRefusals() throws {
        let id = library.long.id
        let translate = try server.post("/api/recordings/\(id)/retranscribe", json: #"{"translate": true}"#)
        #expect(translate.status == 400)
        #expect(translate.text == "{\"error\":\"translating needs the whisper engine; this server transcribes with pocketsphinx\"}\n")
        #expect(try server.get("/api/recordings/\(id)/retranscribe").status == 404)  // no job was started
        let missing = try server.get("/api/recordings/\(id)/export/srt?transcript=translated")
        #expect(missing.status == 404)
        #expect(missing.text == "{\"error\":\"this recording has no translation; translate it first (Translate into English)\"}\n")
        let bogus = try server.get("/api/recordings/\(id)/export/srt?transcript=english")
        #expect(bogus.status == 400)
        #expect(bogus.text == "{\"error\":\"unknown transcript 'english'; use current or translated\"}\n")
        #expect(try server.get("/api/recordings/\(id)/export/srt?transcript=current").text == library.library.run("export", id, "--format", "srt").stdout)
        #expect(try server.get("/api/recordings/\(id)").json()["translation"] == nil)
    }

    @Test("OpenAI's transcription API: a multipart file transcribed by the local engine, nothing saved; the token as a bearer key; with no language given it is detected (English: en-US)")
    func openAITranscription() throws {
        var form = MultipartFormData(boundary: "lt-test")
        form.addFile("file", fileName: "clip.wav", contentType: "audio/wav",
                     data: try Data(contentsOf: URL(fileURLWithPath: ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav")))
        form.addField("model", "whisper-1")
        form.addField("response_format", "verbose_json")
        let reply = try server.transcriptions(form)
        let headers = ["Host": "127.0.0.1:\(server.port)", "Authorization": "Bearer \(server.token)", "Content-Type": form.contentType]
        #expect(reply.status == 200, "\(reply.text)")
        let answer = try reply.json()
        #expect(answer["task"] as? String == "transcribe")
        #expect(answer["language"] as? String == "en-US")
        #expect(answer["duration"] as? Double == 2.99)
        #expect((answer["text"] as? String ?? "").contains("young man"), "\(reply.text)")
        #expect((answer["segments"] as? [[String: Any]])?.count == 1)
        #expect(library.library.recordingFolders.count == 3)

        var bad = MultipartFormData(boundary: "lt-test")
        bad.addFile("file", fileName: "clip.wav", contentType: "audio/wav", data: Data([1, 2, 3]))
        bad.addField("response_format", "xml")
        let refused = try HTTPReply.send(port: server.port, method: "POST", path: "/v1/audio/transcriptions",
                                         headers: headers.merging(["Content-Type": bad.contentType]) { $1 }, body: bad.finished())
        #expect(refused.status == 400)
        #expect(refused.text == "{\"error\":\"unknown response_format 'xml'; use json, text, srt, vtt, verbose_json\"}\n")
        var german = MultipartFormData(boundary: "lt-test")
        german.addFile("file", fileName: "clip.wav", contentType: "audio/wav", data: Data([1, 2, 3]))
        german.addField("language", "de")
        let unknownLanguage = try HTTPReply.send(port: server.port, method: "POST", path: "/v1/audio/transcriptions",
                                                 headers: headers.merging(["Content-Type": german.contentType]) { $1 }, body: german.finished())
        #expect(unknownLanguage.status == 400)  // the engine (pocketsphinx here) knows only US English: refused before the file is read
        #expect(unknownLanguage.text == "{\"error\":\"pocketsphinx knows only US English (en-US), not 'de'\"}\n")
        let noForm = try HTTPReply.send(port: server.port, method: "POST", path: "/v1/audio/transcriptions",
                                        headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Data("{}".utf8))
        #expect(noForm.status == 400 && noForm.text == "{\"error\":\"the body must be multipart/form-data\"}\n")
        let wrongKey = try HTTPReply.send(port: server.port, method: "POST", path: "/v1/audio/transcriptions",
                                          headers: headers.merging(["Authorization": "Bearer sk-other"]) { $1 }, body: form.finished())
        #expect(wrongKey.status == 401)
    }
}
