import Foundation

/// A text-completion model: one system instruction and one prompt in, one answer out.
///
/// Synchronous on purpose: the command line is synchronous, the calls of a summary depend on one
/// another and run one after the other, and a blocking call is simple to fake in tests. An app can
/// call it from a background task.
///
/// Implemented by `OpenAICompatibleChatModel` (over an `HTTPTransport`), by Apple Intelligence in the
/// iOS app, and by scripted fakes in tests.
public protocol LanguageModel {
    /// The model's answer to `prompt` under the `system` instruction.
    ///
    /// - Parameters:
    ///   - system: The instruction that frames every request of one kind.
    ///   - prompt: The request, including any fenced transcript or notes.
    ///   - temperature: Sampling temperature, 0 (greedy) to 2.
    ///   - maxTokens: Upper bound on the answer's length, in model tokens.
    /// - Returns: The answer's text, untrimmed.
    /// - Throws: Whatever the backend fails with (network, authentication, refusal).
    func complete(system: String, prompt: String, temperature: Double, maxTokens: Int) throws -> String
}
