import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("Chat completions client against a loopback server", .serialized)
struct OpenAICompatibleChatModelTests {
    static let answer = #"{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"- a note"},"finish_reason":"stop"}]}"#

    func model(_ server: LoopbackHTTPServer, _ sleeper: SleepRecorder) throws -> OpenAICompatibleChatModel {
        OpenAICompatibleChatModel(endpoint: OpenAIEndpoint(baseURL: server.baseURL, apiKey: try CloudFixtures.apiKey()),
                                  model: "gpt-4o-mini", http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: sleeper.sleep))
    }

    @Test("posts model, system and user messages, temperature and max_tokens with the bearer key")
    func request() throws {
        let server = try LoopbackHTTPServer(responses: [.json(200, Self.answer)])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let text = try model(server, sleeper).complete(system: "SYS", prompt: "PROMPT", temperature: 0.2, maxTokens: 180)
        #expect(text == "- a note")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer \(CloudFixtures.key)")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.bodyText == #"{"max_tokens":180,"messages":[{"content":"SYS","role":"system"},{"content":"PROMPT","role":"user"}],"model":"gpt-4o-mini","temperature":0.2}"#)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("429 with Retry-After waits that long; 500 backs off exponentially; then succeeds")
    func retries() throws {
        let server = try LoopbackHTTPServer(responses: [
            .error(429, "Rate limit reached", headers: [("Retry-After", "3")]),
            .error(500, "oops"), .error(503, "busy"), .json(200, Self.answer),
        ])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        #expect(try model(server, sleeper).complete(system: "s", prompt: "p", temperature: 0.2, maxTokens: 10) == "- a note")
        #expect(server.requests.count == 4)
        #expect(sleeper.recorded == [3, 2, 4])
    }

    @Test("400 and 401 are not retried, and the key never appears in the error", arguments: [400, 401])
    func noRetry(status: Int) throws {
        let server = try LoopbackHTTPServer(responses: [
            .error(status, "Incorrect API key provided: \(CloudFixtures.key). You can find your API key at https://platform.openai.com."),
            .json(200, Self.answer),
        ])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let error = #expect(throws: OpenAIError.self) {
            try model(server, sleeper).complete(system: "s", prompt: "p", temperature: 0.2, maxTokens: 10)
        }
        #expect(server.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
        let text = try #require(error).description
        #expect(!text.contains(CloudFixtures.key))
        #expect(!text.contains("SECRET"))
        let message = "Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com."
        #expect(text == (status == 400 ? "OpenAI rejected the request (400): \(message)"
                                       : "OpenAI refused the API key (401): \(message) Check OPENAI_API_KEY or the key file."))
    }

    @Test("persistent 500s give up after 4 attempts with the status and attempt count")
    func givesUp() throws {
        let server = try LoopbackHTTPServer(responses: Array(repeating: .error(500, "down"), count: 5))
        defer { server.stop() }
        let sleeper = SleepRecorder()
        #expect(throws: OpenAIError.http(status: 500, message: "down", attempts: 4)) {
            try model(server, sleeper).complete(system: "s", prompt: "p", temperature: 0.2, maxTokens: 10)
        }
        #expect(server.requests.count == 4)
        #expect(sleeper.recorded == [1, 2, 4])
    }

    @Test("a refused connection is a transport error after the retries")
    func transport() throws {
        // Nothing listens on port 1 (a freed ephemeral port could be taken by another test's server).
        let url = URL(string: "http://127.0.0.1:1/v1")!
        let sleeper = SleepRecorder()
        let model = OpenAICompatibleChatModel(endpoint: OpenAIEndpoint(baseURL: url, apiKey: nil), http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: sleeper.sleep))
        let error = #expect(throws: OpenAIError.self) { try model.complete(system: "s", prompt: "p", temperature: 0, maxTokens: 1) }
        guard case .transport(_, let attempts) = error else { Issue.record("expected a transport error, got \(String(describing: error))"); return }
        #expect(attempts == 4)
        #expect(sleeper.recorded == [1, 2, 4])
    }

    @Test("the two-pass summarizer runs end to end over HTTP")
    func summarizer() throws {
        let server = try LoopbackHTTPServer(handler: { request in
            let reply: String
            if request.bodyText.contains("semantic notes") && request.bodyText.contains("Transcript:") { reply = "- Launch moved to Friday" }
            else if request.bodyText.contains("topic tags") { reply = "launch, schedule" }
            else { reply = "The launch moved to Friday." }
            return .json(200, #"{"choices":[{"message":{"content":"\#(reply)"}}]}"#)
        })
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let summary = try ModelSummarizer(model: try model(server, sleeper)).summarize(
            segments: [TranscriptSegment(text: "the lunch moved to friday", startSeconds: 0, endSeconds: 2)], languageHint: "en-US")
        #expect(summary.summary == "The launch moved to Friday.")
        #expect(summary.tags == ["launch", "schedule"])
        #expect(server.requests.count == 3)
    }
}
