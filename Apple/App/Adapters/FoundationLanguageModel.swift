import Foundation
import FoundationModels
import LiveTranscriberCore

/// The core's `LanguageModel` over Apple Intelligence's on-device model
/// (FoundationModels `LanguageModelSession`), with plain text prompts.
///
/// Each call is one fresh session: the core's two-pass summary (`ModelSummarizer`) gives every
/// request its own instruction, and a session would otherwise carry one request into the next.
/// The core's protocol is synchronous, so the call waits for the model; call it from a background
/// task, never from the main actor.
final class FoundationLanguageModel: LanguageModel {
    /// Whether the on-device model can answer now; when it cannot, the app summarizes with the
    /// core's offline `ExtractiveSummarizer` instead.
    static var isAvailable: Bool {
        SystemLanguageModel.default.isAvailable
    }

    /// Why the model is unavailable, for Settings' diagnostics; nil when it is available.
    static var unavailableReason: String? {
        switch SystemLanguageModel.default.availability {
        case .available: nil
        case .unavailable(.deviceNotEligible): "This device does not support Apple Intelligence."
        case .unavailable(.appleIntelligenceNotEnabled): "Apple Intelligence is turned off."
        case .unavailable(.modelNotReady): "The on-device model is still downloading."
        case .unavailable: "The on-device model is unavailable."
        }
    }

    func complete(system: String, prompt: String, temperature: Double, maxTokens: Int) throws -> String {
        let answer = BlockingResult<String>()
        Task.detached(priority: .userInitiated) {
            do {
                let session = LanguageModelSession(instructions: system)
                let options = GenerationOptions(
                    sampling: temperature == 0 ? .greedy : nil, temperature: temperature, maximumResponseTokens: maxTokens)
                let response = try await session.respond(to: prompt, options: options)
                answer.finish(.success(response.content))
            } catch {
                answer.finish(.failure(error))
            }
        }
        return try answer.wait()
    }
}
