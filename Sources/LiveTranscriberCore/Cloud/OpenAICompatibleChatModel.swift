import Foundation

/// A `LanguageModel` over the chat completions API of OpenAI or any compatible server
/// (llama.cpp, Ollama, vLLM): `POST {baseURL}/chat/completions`.
///
/// Sends `model`, a system and a user message, `temperature` and `max_tokens` (the field compatible
/// servers understand); reads `choices[0].message.content`. Retries as the `HTTPClient`'s policy says.
///
/// ```swift
/// let key = try OpenAIAPIKey.resolve(environment: env, defaultKeyFile: home.appendingPathComponent("openai-api-key"))
/// let model = OpenAICompatibleChatModel(endpoint: OpenAIEndpoint(baseURL: OpenAIEndpoint.defaultBaseURL, apiKey: key),
///                                       model: "gpt-4o-mini", http: HTTPClient(transport: transport))
/// ```
public final class OpenAICompatibleChatModel: LanguageModel, Sendable {
    public let endpoint: OpenAIEndpoint
    /// The model name sent, such as "gpt-4o-mini".
    public let model: String
    private let http: HTTPClient

    /// The default model for summaries.
    public static let defaultModel = "gpt-4o-mini"

    public init(endpoint: OpenAIEndpoint, model: String = defaultModel, http: HTTPClient) {
        self.endpoint = endpoint
        self.model = model
        self.http = http
    }

    struct Body: Encodable {
        struct Message: Encodable { var role: String; var content: String }
        var model: String
        var messages: [Message]
        var temperature: Double
        var max_tokens: Int
    }

    struct Answer: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable { var content: String? }
            var message: Message
        }
        var choices: [Choice]
    }

    /// The assistant's answer.
    ///
    /// - Throws: `OpenAIError` (`badRequest`, `unauthorized`, `http`, `transport`, `invalidResponse`);
    ///   messages never contain the key.
    public func complete(system: String, prompt: String, temperature: Double, maxTokens: Int) throws -> String {
        let body = Body(model: model, messages: [.init(role: "system", content: system), .init(role: "user", content: prompt)],
                        temperature: temperature, max_tokens: maxTokens)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let request = endpoint.request("chat/completions", contentType: "application/json", body: try encoder.encode(body))
        let response = try http.send(request)
        try endpoint.check(response)
        guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body), let first = answer.choices.first else {
            throw OpenAIError.invalidResponse("no choices[0].message in the chat completion")
        }
        return first.message.content ?? ""
    }
}
