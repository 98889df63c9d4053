import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("Only errors a retry can fix are retried", .serialized)
struct OpenAIRetryTests {
    func client(_ server: LoopbackHTTPServer, _ sleeper: SleepRecorder) throws -> OpenAITranscriptionClient {
        OpenAITranscriptionClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL, apiKey: try CloudFixtures.apiKey()),
                                  http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: sleeper.sleep))
    }

    static func quota(_ code: String) -> LoopbackHTTPServer.Response {
        .json(429, #"{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"\#(code)"}}"#)
    }

    @Test("429 insufficient_quota fails at once: one upload, no wait, a clear sentence")
    func quotaIsNotRetried() throws {
        let server = try LoopbackHTTPServer(responses: [Self.quota("insufficient_quota"), .json(200, #"{"text":"x"}"#)])
        defer { server.stop() }
        let sleeper = SleepRecorder()
        let error = #expect(throws: OpenAIError.self) {
            try client(server, sleeper).transcribe(audio: Data([0]), fileName: "audio.wav", model: .gpt4oTranscribe, language: nil)
        }
        #expect(error?.description == "OpenAI refused the request: the account is out of quota (429 insufficient_quota): You exceeded your current quota. Nothing was retried; add credit to the account, or use the local engine.")
        #expect(server.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("501 and 505 are not retried; 502 is", arguments: [(501, 1), (505, 1), (502, 4)])
    func serverErrors(status: Int, requests: Int) throws {
        let server = try LoopbackHTTPServer(responses: Array(repeating: .error(status, "nope"), count: 4))
        defer { server.stop() }
        let sleeper = SleepRecorder()
        #expect(throws: OpenAIError.self) {
            try client(server, sleeper).transcribe(audio: Data([0]), fileName: "audio.wav", model: .gpt4oTranscribe, language: nil)
        }
        #expect(server.requests.count == requests)
    }

    @Test("the policy: quota and billing codes stop, a plain rate limit waits", arguments: [
        (429, "insufficient_quota", RetryPolicy.Decision.stop),
        (429, "billing_hard_limit_reached", .stop),
        (429, "rate_limit_exceeded", .retry(afterSeconds: 1)),
        (429, nil, .retry(afterSeconds: 1)),
        (500, nil, .retry(afterSeconds: 1)),
        (501, nil, .stop),
        (400, nil, .stop),
    ] as [(Int, String?, RetryPolicy.Decision)])
    func policy(status: Int, code: String?, decision: RetryPolicy.Decision) {
        #expect(RetryPolicy.openAI.decide(status: status, attempt: 1, errorCode: code) == decision)
    }
}
