import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
@testable import LiveTranscriberServe
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import LiveTranscriberTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A library in a temporary folder holding real speech: the five librivox sentences of
/// pocketsphinx's test data as one 24.7 s recording (one row per sentence, word times spread
/// evenly over each), and two short ones, saved through the store as `record` saves them.
final class ServedLibrary {
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox"
    static let utc = TimeZone(identifier: "UTC")!
    static let t0 = Date(timeIntervalSince1970: 1_795_984_872)  // 2026-11-29 20:41:12 UTC

    let library: TemporaryLibrary
    let long: Recording
    let short: Recording
    let tagged: Recording
    let segments: [TranscriptSegment]

    /// - Parameter folder: where the library is made (a `SmallDisk`'s folder); a temporary folder by default.
    init(in folder: URL? = nil) throws {
        library = try folder.map(TemporaryLibrary.init(at:)) ?? TemporaryLibrary()
        let store = try LibraryStore(directory: library.url, timeZone: Self.utc, audioMeasure: SndFileAudioMeasure())
        let texts = try String(contentsOfFile: Self.librivox + "/transcription", encoding: .utf8)
            .split(separator: "\n").map { line in
                line.replacingOccurrences(of: "<s> ", with: "").components(separatedBy: " </s>")[0]
            }
        let ids = try String(contentsOfFile: Self.librivox + "/fileids", encoding: .utf8).split(separator: "\n").map(String.init)
        var pcm = Data()
        var segments: [TranscriptSegment] = []
        for (id, text) in zip(ids, texts) {
            let wav = try Data(contentsOf: URL(fileURLWithPath: "\(Self.librivox)/\(id).wav"))
            let start = Double(pcm.count) / 32_000
            pcm.append(wav.dropFirst(44))
            let end = Double(pcm.count) / 32_000
            let words = text.split(separator: " ").map(String.init)
            let step = (end - start) / Double(words.count)
            segments.append(TranscriptSegment(text: text, startSeconds: start, endSeconds: end, words: words.enumerated().map { index, word in
                WordTiming(word: word, startSeconds: start + step * Double(index), endSeconds: start + step * Double(index + 1))
            }))
        }
        self.segments = segments
        long = try Self.save(store, id: "20261129-204112-aaaa", createdAt: Self.t0, name: "Sense and Sensibility", tags: ["austen", "books"],
                             audio: pcm, segments: segments)
        short = try Self.save(store, id: "20261129-204212-bbbb", createdAt: Self.t0.addingTimeInterval(60), name: "Budget review",
                              tags: ["work"], audio: Data(count: 32_000), segments: [
                                TranscriptSegment(text: "the budget for next year", startSeconds: 0.2, endSeconds: 0.9)])
        tagged = try Self.save(store, id: "20261129-204312-cccc", createdAt: Self.t0.addingTimeInterval(120), name: "Team sync: Q3/Q4",
                               tags: ["Work"], audio: Data(count: 16_000), segments: [])
    }

    static func save(_ store: LibraryStore, id: String, createdAt: Date, name: String, tags: [String], audio: Data,
                     segments: [TranscriptSegment]) throws -> Recording {
        let draft = try store.createDraft(id: id, createdAt: createdAt, language: "en-US",
                                          audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        try WAVFixture.make(audio: audio).write(to: draft.audioFile)
        for segment in segments { try store.appendToJournal(segment, draft: draft) }
        return try store.saveDraft(draft, name: name, tags: tags, location: nil, durationSeconds: Double(audio.count) / 32_000, segments: segments)
    }

    /// A context as the full program makes one for this library (pocketsphinx as the engine).
    var context: CommandContext {
        var context = CommandContext(stdout: BufferOutput(), stderr: BufferOutput(), environment: library.environment.merging(["TZ": "UTC"]) { $1 })
        context.audioMeasure = SndFileAudioMeasure()
        return context
    }

    /// The recording's audio file as saved.
    func audioFile(_ recording: Recording) -> URL {
        library.url.appendingPathComponent("recordings/\(recording.id)/audio.wav")
    }
}

/// `livetranscriber serve`'s API and adapter, started in this process on a free loopback port.
final class RunningServer {
    let api: LibraryWebAPI
    let server: MicroHTTPServer
    let token: String
    /// The Live page's recordings and the page's recorder (recording `recordInput` in real time).
    let live: LiveWebAPI
    /// Where uploads are kept while they are read (this server's own, so other tests' uploads never show).
    let uploads: URL

    /// - Parameter defaultEngine: true to leave the engine to the server's default (whisper), as
    ///   a user's `serve` does; false for the library's pocketsphinx.
    init(_ library: ServedLibrary, maximumBodyBytes: Int = WebAccess.maximumBodyBytes,
         recordInput: String = ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav", defaultEngine: Bool = false) throws {
        token = WebAccess.newToken()
        uploads = try TestFolders.make("lt-uploads")
        var chosen = library.context
        if defaultEngine { chosen.environment[LinuxSpeechEngines.engineVariable] = nil }
        let context = chosen
        let recordings = LiveRecordings(dataDirectory: library.library.url)
        recordings.start()
        let retranscriber = WebRetranscriber(context: context)
        live = LiveWebAPI(recordings: recordings, recorder: WebRecorder(context: context, input: .file(path: recordInput), recordings: recordings,
                                                                        refiner: retranscriber))
        api = LibraryWebAPI(token: token, host: "127.0.0.1", timeZone: ServedLibrary.utc,
                            importer: WebImport(context: context, stopFlag: StopFlag(), scratch: uploads), live: live,
                            retranscriber: retranscriber) { try makeStore(context) }
        let api = api
        server = try MicroHTTPServer(host: "127.0.0.1", port: 0, maximumBodyBytes: maximumBodyBytes) { api.respond(to: $0) }
        api.listening(on: server.port)
    }

    deinit {
        live.recorder?.stopForShutdown()
        live.recordings.stop()
        try? FileManager.default.removeItem(at: uploads)
    }

    var port: Int { server.port }

    /// A request with the Host and the token cookie a browser holding the token sends; a
    /// changing one with the token header too.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws -> HTTPReply {
        var all = ["Host": "127.0.0.1:\(port)", "Cookie": "\(WebAccess.cookieName)=\(token)"]
        if method != "GET" && method != "HEAD" { all[WebAccess.headerName] = token }
        return try HTTPReply.send(port: port, method: method, path: path, headers: all.merging(headers) { $1 }, body: body)
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPReply { try request("GET", path, headers: headers) }

    func post(_ path: String, json: String) throws -> HTTPReply { try request("POST", path, body: Data(json.utf8)) }

    /// `POST /v1/audio/transcriptions` with `form`, the token as OpenAI's bearer key (no cookie), as OpenAI's clients send it.
    func transcriptions(_ form: MultipartFormData) throws -> HTTPReply {
        let headers = ["Host": "127.0.0.1:\(port)", "Authorization": "Bearer \(token)", "Content-Type": form.contentType]
        return try HTTPReply.send(port: port, method: "POST", path: "/v1/audio/transcriptions", headers: headers, body: form.finished())
    }
}

/// One HTTP/1.1 exchange over a plain TCP socket: every header is the test's to choose (Host
/// among them, which URLSession would set itself).
struct HTTPReply {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The body as JSON.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw Failure(description: "not a JSON object: \(text)") }
        return object
    }

    /// Sends `method path` with exactly `headers` (and Content-Length and Connection: close) and
    /// reads the whole answer.
    static func send(port: Int, method: String, path: String, headers: [String: String], body: Data = Data()) throws -> HTTPReply {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))") }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let request = Data(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { break }  // the server may answer (413) and close before reading everything
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(buffer, count: count)
        }
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP answer: \(received.count) bytes") }
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: fields, body: Data(received[end.upperBound...]))
    }
}

/// A client of a `text/event-stream` answer over a plain socket: reads its events one at a time,
/// undoing the chunked transfer coding.
final class EventStreamClient {
    private let socket: Int32
    private var raw = Data()
    private var body = Data()
    private var headersRead = false
    /// The answer's status, once read.
    private(set) var status = 0

    init(port: Int, path: String, headers: [String: String]) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPReply.Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(socket); throw HTTPReply.Failure(description: "connect: \(errno)") }
        var head = "GET \(path) HTTP/1.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        _ = Array(head.utf8).withUnsafeBytes { Glibc.send(socket, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(socket) }

    /// The next event's data (the `data:` line), skipping comments; nil when the stream ends or
    /// `seconds` pass without one (a safety net, not a measurement).
    func next(within seconds: Double = 60) throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            while let end = body.range(of: Data("\n\n".utf8)) {
                let text = String(decoding: body[..<end.lowerBound], as: UTF8.self)
                body = Data(body[end.upperBound...])
                if let data = text.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) { return String(data.dropFirst(6)) }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            raw.append(buffer, count: count)
            decode()
        }
    }

    private func decode() {
        if !headersRead {
            guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { return }
            let statusLine = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")[0]
            status = Int(statusLine.split(separator: " ")[1]) ?? 0
            raw = Data(raw[end.upperBound...])
            headersRead = true
        }
        while let lineEnd = raw.range(of: Data("\r\n".utf8)),
              let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
              raw.count >= lineEnd.upperBound - raw.startIndex + size + 2 {
            let start = lineEnd.upperBound
            body.append(raw[start..<(start + size)])
            raw = Data(raw[(start + size + 2)...])
        }
    }
}
