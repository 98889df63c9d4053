import Foundation
import LiveTranscriberCore

/// A language model that answers from a script and records every request, for prompt tests.
public final class ScriptedLanguageModel: LanguageModel, @unchecked Sendable {
    /// One request as the model received it.
    public struct Request: Sendable, Equatable {
        public var system: String
        public var prompt: String
        public var temperature: Double
        public var maxTokens: Int
    }

    private let lock = NSLock()
    private var answers: [String]
    private var recorded: [Request] = []
    private let responder: (@Sendable (Request) -> String)?

    /// Answers `answers` in order; a request beyond the script fails with `ScriptExhausted`.
    public init(answers: [String]) {
        self.answers = answers
        responder = nil
    }

    /// Answers each request with `responder(request)`.
    public init(responder: @escaping @Sendable (Request) -> String) {
        answers = []
        self.responder = responder
    }

    public struct ScriptExhausted: Error, CustomStringConvertible {
        public var description: String { "the scripted model has no answer left" }
    }

    public func complete(system: String, prompt: String, temperature: Double, maxTokens: Int) throws -> String {
        let request = Request(system: system, prompt: prompt, temperature: temperature, maxTokens: maxTokens)
        return try lock.withLock {
            recorded.append(request)
            if let responder { return responder(request) }
            guard !answers.isEmpty else { throw ScriptExhausted() }
            return answers.removeFirst()
        }
    }

    /// Every request so far, in order.
    public var requests: [Request] { lock.withLock { recorded } }
}
