import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("Audio transcriptions client against a loopback server", .serialized)
struct OpenAITranscriptionClientTests {
    static let verbose = #"""
        {"task":"transcribe","language":"english","duration":3.5,"text":"Hello there. General Kenobi.",
         "segments":[{"id":0,"seek":0,"start":0.0,"end":1.5,"text":" Hello there.","tokens":[1],"temperature":0.0},
                     {"id":1,"seek":0,"start":1.5,"end":3.5,"text":" General Kenobi.","tokens":[2],"temperature":0.0}]}
        """#

    func client(_ server: LoopbackHTTPServer, _ sleeper: SleepRecorder) throws -> OpenAITranscriptionClient {
        OpenAITranscriptionClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL, apiKey: try CloudFixtures.apiKey()),
                                  http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: sleeper.sleep))
    }

    @Test("whisper-1 sends verbose_json with segment timestamps and parses the segments")
    func whisper() throws {
        let server = try LoopbackHTTPServer(responses: [.json(200, Self.verbose)])
        defer { server.stop() }
        let audio = CloudFixtures.wav(frames: 800, sampleRate: 8_000, channels: 1)
        let result = try client(server, SleepRecorder()).transcribe(audio: audio, fileName: "audio.wav", model: .whisper1, language: "en-US")
        #expect(result.segments == [
            TranscriptSegment(text: "Hello there.", startSeconds: 0, endSeconds: 1.5),
            TranscriptSegment(text: "General Kenobi.", startSeconds: 1.5, endSeconds: 3.5),
        ])
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/audio/transcriptions")
        #expect(request.headers["authorization"] == "Bearer \(CloudFixtures.key)")
        #expect(request.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let parts = CloudFixtures.parts(request)
        #expect(parts["model"].map { String(decoding: $0.value, as: UTF8.self) } == "whisper-1")
        #expect(parts["response_format"].map { String(decoding: $0.value, as: UTF8.self) } == "verbose_json")
        #expect(parts["timestamp_granularities[]"].map { String(decoding: $0.value, as: UTF8.self) } == "segment")
        #expect(parts["language"].map { String(decoding: $0.value, as: UTF8.self) } == "en")
        #expect(parts["file"]?.filename == "audio.wav")
        #expect(parts["file"]?.contentType == "audio/wav")
        #expect(parts["file"]?.value == audio)
    }

    @Test("gpt-4o models send json without timestamp granularities; file names set the content type", arguments: [
        (TranscriptionModel.gpt4oTranscribe, "audio.flac", "audio/flac"),
        (.gpt4oMiniTranscribe, "audio.opus", "audio/ogg"),
        (.gpt4oTranscribe, "audio.ogg", "audio/ogg"),
        (.gpt4oMiniTranscribe, "audio.mp3", "audio/mpeg"),
    ])
    func textOnly(model: TranscriptionModel, fileName: String, contentType: String) throws {
        let server = try LoopbackHTTPServer(responses: [.json(200, #"{"text":"Hello there."}"#)])
        defer { server.stop() }
        let result = try client(server, SleepRecorder()).transcribe(audio: Data([1, 2, 3]), fileName: fileName, model: model, language: nil)
        #expect(result == CloudTranscription(text: "Hello there.", segments: nil))
        let parts = CloudFixtures.parts(try #require(server.requests.first))
        #expect(parts["model"].map { String(decoding: $0.value, as: UTF8.self) } == model.rawValue)
        #expect(parts["response_format"].map { String(decoding: $0.value, as: UTF8.self) } == "json")
        #expect(parts["timestamp_granularities[]"] == nil)
        #expect(parts["language"] == nil)
        #expect(parts["file"]?.filename == fileName)
        #expect(parts["file"]?.contentType == contentType)
    }

    @Test("413 is 'too large' and is not retried")
    func tooLarge() throws {
        let server = try LoopbackHTTPServer(responses: [.error(413, "Maximum content size limit exceeded"), .json(200, Self.verbose)])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        #expect(throws: OpenAIError.tooLarge(bytes: nil)) {
            try client(server, sleeper).transcribe(audio: Data([0]), fileName: "audio.wav", model: .whisper1, language: nil)
        }
        #expect(server.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("400 and 401 fail at once with a redacted sentence", arguments: [
        (400, "OpenAI rejected the request (400): Invalid file format. Key was [redacted]"),
        (401, "OpenAI refused the API key (401): Invalid file format. Key was [redacted] Check OPENAI_API_KEY or the key file."),
    ])
    func clientErrors(status: Int, expected: String) throws {
        let server = try LoopbackHTTPServer(responses: [.error(status, "Invalid file format. Key was \(CloudFixtures.key)"), .json(200, Self.verbose)])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let error = #expect(throws: OpenAIError.self) {
            try client(server, sleeper).transcribe(audio: Data([0]), fileName: "audio.wav", model: .whisper1, language: nil)
        }
        #expect(error?.description == expected)
        #expect(server.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("a body over 25 MB is refused before anything is sent")
    func refusedLocally() throws {
        let server = try LoopbackHTTPServer(responses: [])
        defer { server.stop() }
        let audio = Data(count: UploadPlan.requestLimitBytes)
        let error = #expect(throws: OpenAIError.self) {
            try client(server, SleepRecorder()).transcribe(audio: audio, fileName: "audio.wav", model: .whisper1, language: nil)
        }
        guard case .tooLarge(let bytes) = error else { Issue.record("expected tooLarge"); return }
        #expect((bytes ?? 0) > UploadPlan.requestLimitBytes)
        #expect(server.requests.isEmpty)
    }

    @Test("500 then success retries once after 1 second; 429 honours Retry-After")
    func retries() throws {
        let server = try LoopbackHTTPServer(responses: [
            .error(500, "boom"), .error(429, "slow down", headers: [("Retry-After", "5")]), .json(200, Self.verbose),
        ])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let result = try client(server, sleeper).transcribe(audio: Data([0]), fileName: "audio.wav", model: .whisper1, language: nil)
        #expect(result.segments?.count == 2)
        #expect(server.requests.count == 3)
        #expect(sleeper.recorded == [1, 5])
    }

    @Test("an unknown audio extension is refused before sending")
    func unsupported() throws {
        let server = try LoopbackHTTPServer(responses: [])
        defer { server.stop() }
        #expect(throws: OpenAIError.unsupportedAudio(fileName: "audio.xyz")) {
            try client(server, SleepRecorder()).transcribe(audio: Data([0]), fileName: "audio.xyz", model: .whisper1, language: nil)
        }
    }

    @Test("a key from the app's Settings is refused with advice that names Settings, and never shows")
    func refusedSettingsKey() throws {
        let server = try LoopbackHTTPServer(responses: [.error(401, "Incorrect API key provided: \(CloudFixtures.key).")])
        defer { server.stop() }
        let key = try OpenAIAPIKey(CloudFixtures.key, source: "Settings", place: .appSettings)
        let client = OpenAITranscriptionClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL, apiKey: key),
                                               http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: SleepRecorder().sleep))
        let error = #expect(throws: OpenAIError.self) {
            try client.transcribe(audio: Data([0]), fileName: "audio.wav", model: .whisper1, language: nil)
        }
        #expect(error?.description == "OpenAI refused the API key (401): Incorrect API key provided: [redacted]. Check the OpenAI API key in Settings.")
    }
}
