import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber summarize ID [--engine offline|openai] [--model NAME] [--base-url URL] [--json]`
struct SummarizeCommand: CLICommand {
    static let spec = CommandSpec(
        name: "summarize",
        abstract: "Write a one-sentence summary and topic tags for a recording.",
        usage: "summarize <id> [--engine \(SummaryEngine.allCases.map(\.rawValue).joined(separator: "|"))] [--model NAME] [--base-url URL] [--json]",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique id prefix, or 'latest'.")],
        options: [engine, model, baseURL, json],
        discussion: """
            The summary and tags are saved with the recording; tags are added to the ones it has.
            --engine openai reads the key from OPENAI_API_KEY, else the file OPENAI_API_KEY_FILE names, else the file $LIVETRANSCRIBER_HOME/openai-api-key (mode 0600).
            """)

    static let engine = OptionSpec.choice(
        "engine", "ENGINE", SummaryEngine.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: " or ") + ".",
        choices: SummaryEngine.allCases.map(\.rawValue))
    static let model = OptionSpec.value("model", "NAME", "Chat model for --engine openai (default \(OpenAICompatibleChatModel.defaultModel)).")
    static let baseURL = OptionSpec.value("base-url", "URL", "OpenAI-compatible API root (default $OPENAI_BASE_URL or https://api.openai.com/v1).")
    static let json = OptionSpec.flag("json", "Print the updated recording as JSON.")

    let reference: String
    let engine: SummaryEngine
    let model: String?
    let baseURL: String?
    let json: Bool
    var services = CommandServices()
    /// Replaces the chat model (tests).
    var languageModel: ((CommandContext) throws -> any LanguageModel)?

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("<id>", min: 1, max: 1)
        reference = arguments.positionals[0]
        let value = arguments.value(Self.engine) ?? SummaryEngine.offline.rawValue
        guard let engine = SummaryEngine(rawValue: value) else { throw UsageError("unknown engine '\(value)'; use \(SummaryEngine.choices)") }
        self.engine = engine
        model = arguments.value(Self.model)
        baseURL = arguments.value(Self.baseURL)
        try CommandServices.validateBaseURL(baseURL)
        if engine == .offline, model != nil || baseURL != nil {
            throw UsageError("'--model' and '--base-url' need '--engine openai'")
        }
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try services.store(context)
        let recording: Recording, result: TranscriptSummary
        do {
            (recording, result) = try RecordingSummarizing.summarize(reference, in: store) { () throws -> any Summarizer in
                switch engine {
                case .offline: ExtractiveSummarizer()
                case .openai: ModelSummarizer(model: try languageModel?(context) ?? OpenAICompatibleChatModel(
                    endpoint: try services.openAIEndpoint(context, baseURLOption: baseURL),
                    model: self.model ?? OpenAICompatibleChatModel.defaultModel, http: services.httpClient()))
                }
            }
        } catch let error as SummarizingError {
            context.printErrorLine("error: \(error)")
            return ExitCode.failure
        }
        context.saved.add("the summary of \(recording.id) was saved")
        if json {
            try context.printJSON(recording)
        } else {
            // What was stored, exactly as stored: the suggested tags after the tag rule (spaces
            // collapsed, hidden characters removed, length capped), in the stored spelling.
            let stored = RecordingTags.cleaned(result.tags)
            let suggested = recording.tags.filter { tag in stored.contains { RecordingTags.same($0, tag) } }
            context.print(VisibleText.escapedKeepingLines(recording.summary ?? result.summary))
            context.print("Tags: " + (suggested.isEmpty ? "(none)" : VisibleText.escaped(RecordingTags.joined(suggested))))
        }
        return ExitCode.success
    }
}
