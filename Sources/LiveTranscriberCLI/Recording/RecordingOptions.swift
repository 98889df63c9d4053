import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// Where `record` takes its audio from.
package enum RecordingInput: Equatable {
    /// An ALSA capture device.
    case microphone(device: String, sampleRate: Int, channels: Int)
    /// Any file libsndfile reads.
    case file(path: String)
    /// Headerless signed 16-bit little-endian PCM from a file, or stdin when path is "-".
    case rawPCM(path: String, sampleRate: Int, channels: Int)

    var isLive: Bool { if case .microphone = self { true } else { false } }
    var readsStandardInput: Bool { if case .rawPCM("-", _, _) = self { true } else { false } }

    /// What the user should know about the input before it is read: a WAV header that was never
    /// finished, read like `sox --ignore-length` does; an MP3 whose first frame states less than
    /// it holds; chained Ogg streams mixed down to mono. Nil for anything else. Reads only headers.
    var repairNote: String? {
        guard case .file(let path) = self else { return nil }
        if path.lowercased().hasSuffix(".mp3") || path.hasPrefix("/proc/self/fd/") {
            if let note = AudioFileReader.lengthNote(path: path, shown: path) { return note }
        }
        if let note = AudioFileReader.chainNote(path: path, shown: path) { return note }
        guard let layout = SndFileReader.unfinishedWAVHeader(at: path) else { return nil }
        return "note: \(path) has a WAV header that was never finished (\(layout.unfinishedHeaderStatement), as a recorder that "
            + "crashed leaves it); repaired the length while reading: \(ElapsedTimeFormat.clock(layout.durationSeconds)) of audio follow the header"
    }

    /// Opens the source. Throws `AudioFileError` with a clear reason.
    func open() throws -> any AudioSource {
        switch self {
        case .microphone(let device, let rate, let channels):
            return try ALSAMicrophone(device: device, sampleRate: rate, channels: channels)
        case .file(let path):
            return try AudioFileReader.open(path: path)
        case .rawPCM(let path, let rate, let channels):
            return try RawPCMReader(path: path, sampleRate: rate, channels: channels)
        }
    }
}

/// How fast a file input is played into the recorder.
package enum PlaybackSpeed: Equatable {
    /// `--speed N`: N seconds of audio per second of wall time (1 is real time).
    case factor(Double)
    /// `--speed max`: as fast as the machine allows.
    case max

    /// Seconds of audio per second of wall time; nil for `max`.
    var factor: Double? { if case .factor(let value) = self { value } else { nil } }

    /// The slowest and fastest factors: a tenth of real time, a hundred times real time.
    static let factors = 0.1...100.0

    /// Parses "1", "2.5" or "max": plain decimal numbers only ("0x10", "1e1", "inf" are refused).
    /// Throws `UsageError` otherwise.
    static func parse(_ text: String) throws -> PlaybackSpeed {
        if text == "max" { return .max }
        let decimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && text.filter({ $0 == "." }).count <= 1 && text.first != "." && text.last != "."
        guard decimal, let value = Double(text), factors.contains(value) else {
            throw UsageError("--speed takes a number from 0.1 to 100 or 'max', not '\(text)'")
        }
        return .factor(value)
    }
}

/// Everything `record` was asked to do, validated.
package struct RecordingOptions {
    var input: RecordingInput
    var speed: PlaybackSpeed
    var name: String?
    var tags: [String]
    var location: RecordingLocation?
    var format: RecordingAudioFormat
    var activityFeed: String?
    var json: Bool
    var discard: Bool
    /// The speech engine, its language and model.
    package var speech: SpeechOptions
    /// `--events PATH|-`: where the live event stream goes (docs/live-events.md), nil for nowhere.
    var events: String? = nil
    /// Set for `import`: the core's plan for the file (`RecordingImport`), whose engine settings
    /// the recorder uses.
    var importing: RecordingImport?
    /// True for `import`: a stop request (Ctrl-C, SIGTERM) discards the file in progress instead
    /// of saving it; `record` saves what it has.
    var stopCancels: Bool { importing != nil }
    /// Memberwise, `package` so `serve`'s recorder (LiveTranscriberServe) builds one as `record` does.
    package init(input: RecordingInput, speed: PlaybackSpeed, name: String?, tags: [String], location: RecordingLocation?,
                 format: RecordingAudioFormat, activityFeed: String?, json: Bool, discard: Bool, speech: SpeechOptions,
                 events: String? = nil, importing: RecordingImport? = nil) {
        self.input = input
        self.speed = speed
        self.name = name
        self.tags = tags
        self.location = location
        self.format = format
        self.activityFeed = activityFeed
        self.json = json
        self.discard = discard
        self.speech = speech
        self.events = events
        self.importing = importing
    }
}

/// `--engine`, `--language`, `--model` and `--vocabulary`: which local speech engine recognizes,
/// in which language, with which model file, expecting which terms.
package struct SpeechOptions: Equatable {
    /// The engine `--engine` named; nil for the default (`engine(in:)`).
    var engineChoice: SpeechEngineKind?
    /// BCP 47 tag of the speech, such as "en-US", or "auto" (the default) to detect it (`LanguageChoice`).
    package var language: String
    /// A model file the user brought; nil for the installed one.
    var model: String?
    /// `--vocabulary`'s value as given; nil when not given (`Vocabulary.chosen`).
    var vocabularyOption: String? = nil
    /// `--speakers N` / `--no-speakers`: speaker labels after the words (`SpeakerOptions`).
    var speakers = SpeakerOptions()

    /// Memberwise, `package` so `serve` (LiveTranscriberServe) builds one.
    /// Speakers are labelled by default (`SpeakerOptions()`).
    package init(engineChoice: SpeechEngineKind?, language: String, model: String?, vocabularyOption: String? = nil) {
        self.engineChoice = engineChoice
        self.language = language
        self.model = model
        self.vocabularyOption = vocabularyOption
    }

    init(engineChoice: SpeechEngineKind?, language: String, model: String?, vocabularyOption: String?, speakers: SpeakerOptions) {
        self.init(engineChoice: engineChoice, language: language, model: model, vocabularyOption: vocabularyOption)
        self.speakers = speakers
    }

    /// `--vocabulary`, shared with `retranscribe`.
    static let vocabulary = OptionSpec.value(
        "vocabulary", "terms",
        "Names and words the speech holds, comma-separated, given to whisper as its prompt (at most \(Vocabulary.maxPromptTokens) "
            + "tokens); default $\(Vocabulary.environmentVariable), else the library's \(LibraryLayout.vocabulary).")

    /// `--no-vocabulary`, shared with `retranscribe`.
    static let noVocabulary = OptionSpec.flag(
        "no-vocabulary", "Give whisper no vocabulary, whatever $\(Vocabulary.environmentVariable) or \(LibraryLayout.vocabulary) hold.")

    /// `--vocabulary`'s value as the core's precedence takes it: "" for `--no-vocabulary` (none,
    /// overriding the rest), nil when neither is given. Throws `UsageError` for both at once.
    static func vocabularyOption(_ arguments: ParsedArguments) throws -> String? {
        guard arguments.flag(noVocabulary) else { return arguments.value(vocabulary) }
        if arguments.value(vocabulary) != nil { throw UsageError("give either '--vocabulary' or '--no-vocabulary', not both") }
        return ""
    }

    /// `--language`'s help: "auto" and what it means per engine.
    static let languageHelp = "Language of the speech, a BCP 47 tag such as en-US or de (or its English name, german), or auto (the default): whisper detects it "
        + "on the first utterance and keeps it; pocketsphinx and English-only models take it as en-US."

    /// `--engine` of `record` and `import` (`retranscribe` has its own, with openai).
    static let engine = OptionSpec.choice(
        "engine", "name", "Speech engine: " + SpeechEngineKind.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
            + "; $\(LinuxSpeechEngines.engineVariable) sets the default.", choices: SpeechEngineKind.allCases.map(\.rawValue))
    /// `--language` of `record` and `import`.
    static let language = OptionSpec.value("language", "tag", languageHelp)
    /// `--model` of `record` and `import`.
    static let model = OptionSpec.value("model", "path", "A model file for the engine, instead of the installed one.")

    /// The options every speech command takes, for its spec; `parse` reads them.
    static let options: [any CommandOption] = [engine, language, model, vocabulary, noVocabulary] + SpeakerOptions.options

    /// The usage fragment: "[--engine whisper|pocketsphinx] [--language TAG|auto] [--model PATH] [--vocabulary TERMS|--no-vocabulary]".
    static let usage = "[--engine \(SpeechEngineKind.allCases.map(\.rawValue).joined(separator: "|"))] [--language TAG|auto] [--model PATH] [--vocabulary TERMS|--no-vocabulary] \(SpeakerOptions.usage)"

    /// Reads the three options. Throws `UsageError` for an unknown engine or a malformed tag.
    static func parse(_ arguments: ParsedArguments) throws -> SpeechOptions {
        let engine: SpeechEngineKind?
        do {
            engine = try arguments.value(Self.engine).map(SpeechEngineKind.named)
        } catch let error as SpeechEngineChoiceError {
            throw UsageError(error.description)
        }
        let language = try languageTag(arguments.value(Self.language) ?? LanguageChoice.default.name)
        let model = arguments.value(Self.model)
        if model?.isEmpty == true { throw UsageError("--model needs a path") }
        return SpeechOptions(engineChoice: engine, language: language, model: model, vocabularyOption: try vocabularyOption(arguments),
                             speakers: try SpeakerOptions.parse(arguments))
    }

    /// The vocabulary for `kind` by the core's precedence (`Vocabulary.chosen`: `--vocabulary`, then
    /// `LIVETRANSCRIBER_VOCABULARY`, then the library's `vocabulary.txt`), bounded for the engine
    /// (`LinuxSpeechEngines.boundedVocabulary`).
    /// - Parameter note: told one line when terms are left out (pocketsphinx takes none; a list
    ///   longer than the prompt's bound is cut).
    /// - Throws: `VocabularyFileError` for a library file that cannot be read as text; the whisper
    ///   model's errors.
    package static func vocabulary(option: String?, kind: SpeechEngineKind, model: String?, environment: [String: String],
                           library: URL, note: (String) -> Void) throws -> Vocabulary {
        let file = library.appendingPathComponent(LibraryLayout.vocabulary)
        var fileText: String?
        if FileManager.default.fileExists(atPath: file.path) {
            guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8) else {
                throw VocabularyFileError(path: file.path)
            }
            fileText = text
        }
        let (chosen, _) = Vocabulary.chosen(option: option, environment: environment[Vocabulary.environmentVariable], libraryFile: fileText)
        let bounded = try LinuxSpeechEngines.boundedVocabulary(chosen, kind: kind, model: model)
        if bounded.terms.count < chosen.terms.count {
            note(kind == .pocketsphinx
                 ? "note: pocketsphinx takes no vocabulary; \(Plural.count(chosen.terms.count, "term")) not used"
                 : "note: the vocabulary was cut to its first \(Plural.count(bounded.terms.count, "term")) of \(chosen.terms.count) "
                    + "(whisper's prompt takes at most \(Vocabulary.maxPromptTokens) tokens)")
        }
        return bounded
    }

    /// `vocabulary(option:…)` with this command's options.
    func vocabulary(kind: SpeechEngineKind, environment: [String: String], library: URL, note: (String) -> Void) throws -> Vocabulary {
        try Self.vocabulary(option: vocabularyOption, kind: kind, model: model, environment: environment, library: library, note: note)
    }

    /// Refuses, as a usage error (exit 64), a language or model `kind` cannot take
    /// (`LinuxSpeechEngines.checkOptions`): a language the engine or model does not know,
    /// pocketsphinx with `--model`. Called before anything is started or changed.
    /// - Throws: `UsageError`; `WhisperError` (exit 1) for a model file that is missing or damaged.
    package static func validate(_ kind: SpeechEngineKind, language: String, model: String?, translate: Bool = false) throws {
        do {
            try LinuxSpeechEngines.checkOptions(kind, language: language, model: model, translate: translate)
        } catch RecognizerError.unsupported(let reason) {
            throw UsageError(reason)
        } catch let error as WhisperError {
            guard case .languageUnsupported = error else { throw error }
            throw UsageError(error.description)
        }
    }

    /// `validate` for the engine these options choose in `environment` (`engine(in:)`, no note).
    func validate(in environment: [String: String], translate: Bool = false) throws {
        try Self.validate(engine(in: environment), language: language, model: model, translate: translate)
    }

    /// A language as given (`--language`, the web page's requests) in the one spelling stored
    /// (`LanguageChoice.parse`): "auto", or a tag ("EN-us" → "en-US", "german" → "de").
    /// Throws `UsageError` for anything else.
    package static func languageTag(_ language: String) throws -> String {
        do {
            return try LanguageChoice.parse(language).name
        } catch let error as LanguageTagError {
            throw UsageError(error.description)
        }
    }

    /// The engine to use: the one `--engine` named, else `LIVETRANSCRIBER_ENGINE`, else whisper
    /// when installed, else pocketsphinx. Throws `UsageError` for a variable naming no engine.
    /// - Parameter note: receives one line when the default fell back to pocketsphinx because a
    ///   whisper model file is missing (not when the user named the engine).
    package func engine(in environment: [String: String], note: (String) -> Void = { _ in }) throws -> SpeechEngineKind {
        if let engineChoice { return engineChoice }
        return try SpeechOptions.defaultEngine(environment, note: note)
    }

    /// The default engine in `environment`. Throws `UsageError` for a bad `LIVETRANSCRIBER_ENGINE`.
    /// - Parameter note: as in `engine(in:note:)`.
    package static func defaultEngine(_ environment: [String: String], note: (String) -> Void = { _ in }) throws -> SpeechEngineKind {
        let kind: SpeechEngineKind
        do {
            kind = try LinuxSpeechEngines.defaultKind(environment: environment)
        } catch let error as SpeechEngineChoiceError {
            throw UsageError("\(LinuxSpeechEngines.engineVariable): \(error.description)")
        }
        if kind == .pocketsphinx, let line = LinuxSpeechEngines.fallbackNote(environment: environment) { note(line) }
        return kind
    }
}

/// The library's vocabulary file is there but cannot be read as UTF-8 text.
struct VocabularyFileError: Error, CustomStringConvertible {
    var path: String
    var description: String { "the vocabulary file \(path) cannot be read as UTF-8 text; fix or remove it, or give --vocabulary" }
}
