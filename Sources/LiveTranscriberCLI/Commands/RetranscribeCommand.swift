import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber retranscribe ID [--engine local|whisper|pocketsphinx|openai] [--model M] [--base-url URL] [--json]`
/// and `livetranscriber retranscribe ID --restore`.
struct RetranscribeCommand: CLICommand {
    static let spec = CommandSpec(
        name: "retranscribe",
        abstract: "Transcribe a saved recording again, on this machine or with OpenAI, or restore the previous transcript.",
        usage: "retranscribe <id> [--engine \(Engine.names.joined(separator: "|"))] [--language TAG|auto] [--model NAME|PATH] [--vocabulary TERMS|--no-vocabulary] \(SpeakerOptions.usage) [--base-url URL] [--translate] [--restore] [--json]",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique id prefix, or 'latest'.")],
        options: [engine, language, model, SpeechOptions.vocabulary, SpeechOptions.noVocabulary] + SpeakerOptions.options + [
            baseURL, translate, restore, json,
        ],
        discussion: """
            Audio leaves this machine only with '--engine openai'. The previous transcript is kept; '--restore' puts it back.
            The key comes from OPENAI_API_KEY, else the file OPENAI_API_KEY_FILE names, else the file
            $LIVETRANSCRIBER_HOME/openai-api-key (mode 0600).
            '--restore' puts back the previous transcript and the language the recording had with it.
            A transcript that cannot be read is rebuilt from the audio; the damaged file is kept in the recording's folder.
            '--translate' replaces an earlier translation; 'export ID --format txt --transcript translated' exports it.
            """)

    static let engine = OptionSpec.choice(
        "engine", "ENGINE", "local (default: the default engine on this machine), "
            + SpeechEngineKind.allCases.map(\.rawValue).joined(separator: " or ") + " (that engine on this machine), or openai (uploads the audio).",
        choices: Engine.names)
    static let language = OptionSpec.value(
        "language", "TAG", "Language of the speech, a BCP 47 tag such as en-US or de (default: the recording's), "
            + "or auto to detect it again (local engines). It becomes the recording's language, as with record and import.")
    static let model = OptionSpec.value(
        "model", "MODEL", "OpenAI model: " + TranscriptionModel.allCases.map(\.rawValue).joined(separator: ", ")
            + " (whisper-1 is the default and keeps its own times); with a local engine, a model file PATH.")
    static let baseURL = OptionSpec.value("base-url", "URL", "OpenAI API root (default $OPENAI_BASE_URL or https://api.openai.com/v1).")
    static let translate = OptionSpec.flag(
        "translate", "Make an English translation (whisper's translate task, a multilingual model) and keep it next to the transcript, which stays as it is.")
    static let restore = OptionSpec.flag("restore", "Put back the transcript the last retranscribe replaced.")
    static let json = OptionSpec.flag("json", "Print the recording and its new transcript as JSON.")

    /// Where the audio is transcribed: on this machine (the default local engine, or one named)
    /// or by OpenAI.
    enum Engine: Equatable {
        /// On this machine with that engine; nil for the default engine.
        case local(SpeechEngineKind?)
        case openai

        /// "local, whisper, pocketsphinx or openai".
        static let names = ["local"] + SpeechEngineKind.allCases.map(\.rawValue) + ["openai"]

        /// Throws `UsageError` for an unknown name.
        static func named(_ name: String) throws -> Engine {
            if name == "local" { return .local(nil) }
            if name == "openai" { return .openai }
            if let kind = SpeechEngineKind(rawValue: name) { return .local(kind) }
            throw UsageError("unknown engine '\(name)'; use " + names.dropLast().joined(separator: ", ") + " or openai")
        }
    }

    let reference: String
    let engine: Engine
    let model: TranscriptionModel
    let baseURL: String?
    /// A model file for the local engine (`--model PATH` with a local engine).
    let localModel: String?
    /// `--language`: transcribe in this language and keep it as the recording's; nil keeps the recording's.
    let language: String?
    /// `--vocabulary` as given; nil when not given (`Vocabulary.chosen`).
    let vocabularyOption: String?
    /// `--speakers N` / `--no-speakers`.
    let speakers: SpeakerOptions
    let restore: Bool
    /// `--translate`: make the English translation instead of a new transcript.
    let translate: Bool
    let json: Bool
    var services = CommandServices()

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("<id>", min: 1, max: 1)
        reference = arguments.positionals[0]
        restore = arguments.flag(Self.restore)
        translate = arguments.flag(Self.translate)
        json = arguments.flag(Self.json)
        baseURL = arguments.value(Self.baseURL)
        try CommandServices.validateBaseURL(baseURL)
        if restore, arguments.value(Self.engine) != nil || arguments.value(Self.model) != nil || baseURL != nil
            || arguments.value(Self.language) != nil || arguments.value(SpeechOptions.vocabulary) != nil
            || arguments.flag(SpeechOptions.noVocabulary) || arguments.value(SpeakerOptions.speakers) != nil
            || arguments.flag(SpeakerOptions.noSpeakers) {
            throw UsageError("'--restore' takes no '--engine', '--language', '--model', '--vocabulary', '--speakers' or '--base-url'")
        }
        if translate, restore { throw UsageError("'--translate' and '--restore' cannot be given together") }
        if translate, arguments.value(SpeakerOptions.speakers) != nil || arguments.flag(SpeakerOptions.noSpeakers) {
            throw UsageError("'--translate' keeps the transcript and its speakers as they are; it takes no '--speakers' or '--no-speakers'")
        }
        speakers = try SpeakerOptions.parse(arguments)
        language = try arguments.value(Self.language).map(SpeechOptions.languageTag)
        vocabularyOption = try SpeechOptions.vocabularyOption(arguments)
        let engine = try Engine.named(arguments.value(Self.engine) ?? "local")
        self.engine = engine
        let modelName = engine == .openai ? arguments.value(Self.model) ?? TranscriptionModel.whisper1.rawValue : TranscriptionModel.whisper1.rawValue
        guard let model = TranscriptionModel(rawValue: modelName) else {
            throw UsageError("unknown model '\(modelName)'; use " + TranscriptionModel.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.model = model
        if engine != .openai, baseURL != nil {
            throw UsageError("'--base-url' needs '--engine openai'")
        }
        if engine == .openai, let language, LanguageChoice(language) == .automatic {
            throw UsageError("--language auto is for the local engines; name the language for openai (or leave it out to keep the recording's)")
        }
        if engine == .openai, translate {
            throw UsageError("'--translate' is for the local whisper engine; openai does not translate here")
        }
        if engine == .openai, vocabularyOption != nil {
            throw UsageError("'--vocabulary' and '--no-vocabulary' are for the local engines; openai is given no vocabulary")
        }
        localModel = engine == .openai ? nil : arguments.value(Self.model)
        if let name = localModel, TranscriptionModel(rawValue: name) != nil {
            throw UsageError("'\(name)' is an OpenAI model; use it with '--engine openai'")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        // A language or model the local engine cannot take: a usage error, before anything is read or changed.
        if case .local(let choice) = engine, !restore {
            try SpeechOptions.validate(choice ?? SpeechOptions.defaultEngine(context.environment),
                                       language: language ?? LanguageChoice.automaticName, model: localModel, translate: translate)
        }
        let store = try services.store(context)
        // A recording whose transcript.json cannot be read is found too: a new transcript repairs it.
        // A library that cannot be changed: refused before anything is transcribed or uploaded.
        let job = try RecordingRetranscription(reference, in: store)
        let recording = job.recording
        if restore {
            guard try store.restorePreviousTranscript(of: recording.id) else {
                context.printErrorLine("error: \(RetranscriptionError.noPreviousTranscript(recordingName: recording.name))")
                return ExitCode.failure
            }
            if let damage = job.damage { context.printError(damage.note(id: recording.id, repair: "the previous transcript was put back")) }
            try report(try store.resolve(recording.id), store: store, context: context, done: "Restored the previous transcript of '\(recording.name)'")
            return ExitCode.success
        }
        let language = self.language ?? job.defaultLanguage()
        if translate, case .local(let choice) = engine {
            return try translateRecording(recording, language: language, engine: choice, store: store, context: context)
        }
        if engine == .openai, LanguageChoice(language) == .automatic {  // the recording's own language (--language auto is refused above)
            context.printErrorLine("error: '\(recording.name)' has no language of its own ('auto'); name it for openai with --language")
            return ExitCode.failure
        }
        var engineName = model.rawValue
        let outcome: RetranscriptionOutcome
        do {
            outcome = try job.run(in: store, reads: .libsndfile, speakers: speakers.labelling(services.diarizer({ false }))) { audio in
                switch engine {
                case .local(let choice):
                    let kind = try choice ?? SpeechOptions.defaultEngine(context.environment, note: context.printError)
                    engineName = kind.rawValue
                    let terms = try SpeechOptions.vocabulary(option: vocabularyOption, kind: kind, model: localModel, environment: context.environment,
                                                             library: context.dataDirectory, note: context.printError)
                    let transcript = try services.localTranscriber(kind, localModel, try job.recentLanguage(in: store))
                        .transcript(of: audio, language: language, vocabulary: terms, languageWarning: { [context] in context.printError($0) })
                    return NewTranscript(transcript, vocabulary: terms.terms)
                case .openai:
                    let endpoint = try services.openAIEndpoint(context, baseURLOption: baseURL)
                    context.printError(Retranscription.uploadNotice(recordingName: recording.name, host: endpoint.baseURL.host, model: model))
                    let retranscriber = CloudRetranscriber(
                        client: OpenAITranscriptionClient(endpoint: endpoint, http: services.httpClient()),
                        slicer: services.audioSlicer(), maximumPieceBytes: services.maximumPieceBytes)
                    let segments = try retranscriber.transcribe(
                        audioFile: audio, localSegments: job.currentSegments ?? [], model: model,
                        language: language, durationSeconds: recording.durationSeconds)
                    return NewTranscript(segments: segments, language: language, vocabulary: nil)
                }
            }
        } catch let error as AudioFormatUnsupported {
            // Audio this machine cannot read (an iPhone's M4A): one line, before anything is uploaded or changed.
            context.printErrorLine("error: '\(recording.name)' cannot be transcribed again here: \(error.description)")
            return ExitCode.failure
        } catch let error as RetranscriptionError {
            context.printErrorLine("error: \(error.description)")
            return ExitCode.failure
        }
        guard case .saved(let updated, let repaired, let speakerLabels) = outcome else {
            context.printErrorLine("error: " + (outcome.notSavedReason ?? ""))
            return ExitCode.failure
        }
        if let repaired { context.printError(repaired.note(id: recording.id, repair: "a new one was made from the audio")) }
        SpeakerOptions.report(speakerLabels, context: context)
        context.saved.add("the new transcript of \(recording.id) was saved (\(repaired == nil ? "the previous one is kept" : "the damaged one is kept in its folder"))")
        try report(updated.recording, store: store, context: context, done: "Re-transcribed '\(recording.name)' with \(engineName)")
        if !json && repaired == nil {  // a damaged transcript is not kept as the previous one (the note says where it is)
            context.print("The previous transcript is kept: 'livetranscriber retranscribe \(recording.id) --restore' puts it back.")
        }
        return ExitCode.success
    }

    /// `--translate`: the recording's English translation (`RecordingTranslation`), kept next to
    /// its transcript; the transcript is not touched.
    private func translateRecording(_ recording: Recording, language: String, engine choice: SpeechEngineKind?,
                                    store: any RecordingStore, context: CommandContext) throws -> Int32 {
        let kind = try choice ?? SpeechOptions.defaultEngine(context.environment, note: context.printError)
        let segments: [TranscriptSegment]
        do {
            segments = try LocalFileTranscriber.translate(recording, from: language, in: store, engine: kind, model: localModel,
                                                          languageWarning: { [context] in context.printError($0) })
        } catch let error as AudioFormatUnsupported {
            context.printErrorLine("error: '\(recording.name)' cannot be translated here: \(error.description)")
            return ExitCode.failure
        }
        context.saved.add("the translation of \(recording.id) was saved (its transcript is unchanged)")
        if json {
            // Not the transcript's shape (`segments`): a script can tell the translation from the transcript.
            struct Translated: Encodable { var recording: Recording; var translation: [TranscriptSegment] }
            try context.printJSON(Translated(recording: try store.resolve(recording.id), translation: segments))
        } else {
            context.print("Translated '\(recording.name)' into English with \(kind.rawValue): \(Plural.count(segments.count, "segment")). "
                          + "'livetranscriber export \(recording.id) --format txt --transcript translated' exports it.")
        }
        return ExitCode.success
    }

    private func report(_ recording: Recording, store: any RecordingStore, context: CommandContext, done: String) throws {
        let segments = try store.transcript(of: recording.id)
        if json {
            let document = RecordingWithTranscript(recording: recording, segments: segments)
            try context.printJSON(document)
        } else {
            context.print("\(done): \(Plural.count(segments.count, "segment")).")
        }
    }
}
