import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// What the export, summarize and retranscribe commands take from outside; tests replace parts.
///
/// By default the store comes from `makeStore` (LiveTranscriberLibraryCLI) and the rest from the Linux adapters.
struct CommandServices {
    var store: (CommandContext) throws -> any RecordingStore = { try makeStore($0) }
    /// The local engine, a model file the user brought (nil for the installed one) and the
    /// library's recent language (`RecentLanguage`, for audio too short to identify).
    var localTranscriber: (SpeechEngineKind, String?, String?) throws -> any LocalTranscriber = {
        LocalFileTranscriber(engine: $0, model: $1, recentLanguage: $2)
    }
    var audioSlicer: () -> any AudioSlicer = { SndFileAudioSlicer() }
    /// Who speaks when (`SpeakerLabelling`): sherpa-onnx with the installed models.
    var diarizer: (@escaping @Sendable () -> Bool) -> any SpeakerDiarizer = { SherpaOnnxDiarizer(isCancelled: $0) }
    /// How HTTP retries wait; tests record instead of sleeping.
    var sleep: HTTPClient.Sleep = { Thread.sleep(forTimeInterval: $0) }
    /// Largest upload piece; tests lower it to exercise splitting.
    var maximumPieceBytes = UploadPlan.maximumPieceBytes

    /// The OpenAI endpoint: the base URL from `--base-url`, `OPENAI_BASE_URL` or OpenAI's; the key from
    /// `OPENAI_API_KEY`, `OPENAI_API_KEY_FILE` or `<data directory>/openai-api-key` (mode 0600).
    /// A missing key is an error for api.openai.com only; other (self-hosted) servers may need none.
    func openAIEndpoint(_ context: CommandContext, baseURLOption: String?) throws -> OpenAIEndpoint {
        let baseURL: URL
        do {
            baseURL = try OpenAIEndpoint.baseURL(option: baseURLOption, environment: context.environment)
        } catch let error as OpenAIError {
            throw UsageError(error.description)  // OPENAI_BASE_URL is wrong: nothing was sent
        }
        let keyFile = context.dataDirectory.appendingPathComponent("openai-api-key")
        do {
            return OpenAIEndpoint(baseURL: baseURL, apiKey: try OpenAIAPIKey.resolve(environment: context.environment, defaultKeyFile: keyFile))
        } catch OpenAIError.missingKey(let path) {
            if baseURL.host?.lowercased() == OpenAIEndpoint.defaultBaseURL.host { throw OpenAIError.missingKey(defaultKeyFile: path) }
            return OpenAIEndpoint(baseURL: baseURL, apiKey: nil)
        }
    }

    /// Checks `--base-url` before anything runs. Throws `UsageError` when it is not an http(s) URL.
    static func validateBaseURL(_ option: String?) throws {
        guard let option else { return }
        do {
            _ = try OpenAIEndpoint.baseURL(option: option, environment: [:])
        } catch let error as OpenAIError {
            throw UsageError(error.description)
        }
    }

    /// The HTTP client of the OpenAI clients: the core's retries over URLSession (FoundationNetworking).
    func httpClient() -> HTTPClient { HTTPClient(transport: URLSessionHTTPTransport(), sleep: sleep) }
}
