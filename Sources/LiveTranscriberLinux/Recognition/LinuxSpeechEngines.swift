import Foundation
import LiveTranscriberCore
import Synchronization

/// The one factory of local speech engines on Linux: every command that recognizes speech
/// (`record`, `import`, `retranscribe --engine local`) gets its recognizer here.
public enum LinuxSpeechEngines {
    private static let loaded = LoadedWhisperEngines()

    /// The environment variable that names the engine used when `--engine` names none.
    public static let engineVariable = "LIVETRANSCRIBER_ENGINE"

    /// The engine used when none is named: `LIVETRANSCRIBER_ENGINE` when set, else whisper when
    /// its model and voice activity model are installed, else pocketsphinx.
    /// - Throws: `SpeechEngineChoiceError.unknown` for a variable naming no engine.
    public static func defaultKind(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SpeechEngineKind {
        if let name = environment[engineVariable], !name.isEmpty { return try SpeechEngineKind.named(name) }
        return installedDefaultKind()
    }

    /// The note for a default that fell back to pocketsphinx because a whisper model file is missing
    /// (one line, for stderr): nil when `LIVETRANSCRIBER_ENGINE` names the engine (the user chose) or
    /// when both whisper files are installed.
    public static func fallbackNote(environment: [String: String] = ProcessInfo.processInfo.environment,
                                    files: WhisperModelFiles = .installed) -> String? {
        if let name = environment[engineVariable], !name.isEmpty { return nil }
        guard let missing = files.missingFile else { return nil }
        return "note: transcribing with pocketsphinx: the \(WhisperModelFiles.modelNoun(missing)) \(missing) is not installed; "
            + "\(WhisperModelFiles.installAdvice(for: missing, damaged: false)); or choose an engine with --engine"
    }

    /// Issue 10's default: whisper when its installed model and VAD model are there, pocketsphinx otherwise.
    public static func installedDefaultKind() -> SpeechEngineKind {
        SpeechEngineKind.defaultKind(whisperModelInstalled: WhisperModelFiles.installed.areInstalled)
    }

    /// A recognizer of `kind` for `language` (BCP 47, or "auto": `LanguageChoice`).
    /// - Parameters:
    ///   - language: with pocketsphinx, which knows US English only, "auto" means en-US.
    ///   - model: a model file the user brought (`--model PATH`, a ggml Whisper model); nil for the installed one.
    ///   - mode: how whisper decodes (`RecognitionMode`): `.live` for a recording, `.file` (the default)
    ///     for a file transcribed on the caller's thread, `.fileInBackground` for a file the recording engine reads.
    ///   - vocabulary: whisper's initial prompt (bound it with `boundedVocabulary`); pocketsphinx takes none.
    ///   - languageWarning: told the one warning line when the speech contradicts a named language (whisper).
    /// - Throws: `RecognizerError` when pocketsphinx's model is missing or does not know the language;
    ///   `WhisperError` when whisper's model is missing or damaged or does not know the language.
    public static func make(_ kind: SpeechEngineKind, language: String, model: String? = nil,
                            mode: RecognitionMode = .file, vocabulary: Vocabulary = Vocabulary(), recentLanguage: String? = nil,
                            translate: Bool = false,
                            languageWarning: @escaping (String) -> Void = { _ in }) throws -> any SpeechRecognizer {
        switch kind {
        case .pocketsphinx:
            try checkOptions(.pocketsphinx, language: language, model: model, translate: translate)
            return try PocketSphinxRecognizer(model: PocketSphinxModel.englishUS)
        case .whisper:
            return try namingUserModel(model) {
                try whisperEngine(model: model, tokenOnsets: !mode.interims).makeRecognizer(language: language, mode: mode, vocabulary: vocabulary,
                                                               recentLanguage: recentLanguage, translate: translate,
                                                               languageWarning: languageWarning)
            }
        }
    }

    /// Checks that `kind` can take `language` and `model` before anything is started or changed, so
    /// a command can refuse them as a usage error: pocketsphinx takes no model and knows only US
    /// English; whisper knows the languages of its tokenizer, and an English-only model only English.
    /// "auto" suits every engine and model.
    /// - Throws: `RecognizerError.unsupported` (pocketsphinx) or `WhisperError.languageUnsupported`
    ///   for an option the engine cannot take; `WhisperError` for a model that is missing or damaged
    ///   (it is loaded, once per process, only to ask an English-only model about another language).
    public static func checkOptions(_ kind: SpeechEngineKind, language: String, model: String?, translate: Bool = false) throws {
        switch kind {
        case .pocketsphinx:
            // Said first: what was asked cannot be done whatever the language.
            if translate { throw RecognizerError.unsupported(translationUnsupported(by: kind)) }
            guard model == nil else { throw RecognizerError.unsupported("pocketsphinx takes no --model; it uses Debian's pocketsphinx-en-us") }
            let installed = PocketSphinxModel.englishUS
            guard LanguageChoice(language) == .automatic || LanguageTag.sameLanguage(language, installed.language) else {
                throw RecognizerError.unsupported("pocketsphinx knows only US English (en-US), not '\(language)'")
            }
        case .whisper:
            guard LanguageChoice(language) != .automatic else { return }
            let code = LanguageTag.primarySubtag(language)
            guard WhisperEngine.knowsLanguage(code) else {
                let file = URL(fileURLWithPath: WhisperModelFiles.installed(model: model).model).lastPathComponent
                throw WhisperError.languageUnsupported(language: language, model: file)
            }
            if code == "en" { return }  // every Whisper model knows English
            _ = try namingUserModel(model) { try whisperEngine(model: model).whisperLanguage(for: language) }
        }
    }

    /// "pocketsphinx cannot translate; use --engine whisper": the one sentence for a translation an
    /// engine cannot make (`import --translate`, `retranscribe --translate`, serve's Translate).
    public static func translationUnsupported(by kind: SpeechEngineKind) -> String {
        "\(kind.rawValue) cannot translate; use --engine whisper"
    }

    /// Runs `body`, turning a missing or unloadable model that the user named into the error that says so.
    private static func namingUserModel<T>(_ model: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WhisperError {
            // A model the user named is theirs to fix: no advice to reinstall ours.
            switch error {
            case .modelMissing(let path) where path == model: throw WhisperError.userModelUnusable(path: path, missing: true)
            case .modelUnreadable(let path) where path == model: throw WhisperError.userModelUnusable(path: path, missing: false)
            default: throw error
            }
        }
    }

    /// `vocabulary` as `kind` can take it: for whisper, the terms that fit `Vocabulary.maxPromptTokens`
    /// of its tokenizer (`Vocabulary.bounded`); pocketsphinx takes none (empty).
    /// - Throws: `WhisperError` when the whisper model cannot be loaded.
    public static func boundedVocabulary(_ vocabulary: Vocabulary, kind: SpeechEngineKind, model: String? = nil) throws -> Vocabulary {
        guard !vocabulary.isEmpty else { return vocabulary }
        switch kind {
        case .pocketsphinx: return Vocabulary()
        case .whisper:
            let engine = try namingUserModel(model) { try whisperEngine(model: model) }
            return vocabulary.bounded { engine.tokenCount($0) }
        }
    }

    /// The loaded whisper engine for `model` (the installed one when nil), loaded once per process,
    /// model and `tokenOnsets` (`WhisperEngine.hasTokenOnsets`: DTW on, for decoding files; off for
    /// live recognition, which would pay its extra decoder pass on every interim decode). With
    /// `tokenOnsets` nil (no decoding: tokens, languages), whichever is loaded serves.
    /// Throws `WhisperError.modelMissing` or `.modelUnreadable`.
    public static func whisperEngine(model: String? = nil, tokenOnsets: Bool? = nil) throws -> WhisperEngine {
        try loaded.engine(for: WhisperModelFiles.installed(model: model), tokenOnsets: tokenOnsets)
    }

    /// The engines loaded so far, by model files and `tokenOnsets`; the lock is held while one loads,
    /// so two threads asking for the same model load it once.
    private final class LoadedWhisperEngines: Sendable {
        private let engines = Mutex<[WhisperModelFiles: [Bool: WhisperEngine]]>([:])

        func engine(for files: WhisperModelFiles, tokenOnsets: Bool?) throws -> WhisperEngine {
            try engines.withLock { engines in
                let loaded = engines[files, default: [:]]
                if let tokenOnsets {
                    if let engine = loaded[tokenOnsets] { return engine }
                } else if let engine = loaded[false] ?? loaded[true] {
                    return engine
                }
                let engine = try WhisperEngine(files: files, tokenOnsets: tokenOnsets ?? false)
                engines[files, default: [:]][tokenOnsets ?? false] = engine
                return engine
            }
        }
    }
}

/// How a whisper recognizer decodes (pocketsphinx decodes as it goes whatever the mode).
public enum RecognitionMode: Sendable, Equatable {
    /// A recording heard as it is made (`record`: microphone, `--input`, pipes): decodes on a background
    /// thread, the open utterance re-decoded for interim text, look-ahead finals and local agreement
    /// (`UtteranceRecognizer`).
    case live
    /// A file transcribed as fast as it decodes (`retranscribe`): finals only, in order, on the
    /// caller's thread, its utterances decoded in packs (`UtterancePacking`, with a model whose
    /// token onsets whisper.cpp can time); nothing interim.
    case file
    /// A file the recording engine reads (`import`, serve's upload import): the decodes of `.file`,
    /// finals only, but on a background thread, so the reader draws progress and takes stops
    /// between blocks while a decode runs. Its finals are `.file`'s.
    case fileInBackground

    /// True for `.live`: interim decodes, look-ahead finals and local agreement.
    public var interims: Bool { self == .live }
    /// True unless `.file`: decodes run on a background worker.
    public var decodesInBackground: Bool { self != .file }

    /// whisper.cpp threads per decode. Live, two where there are two cores: a final decode's wall
    /// time is what the user waits for, and two threads cut it by about 40% for about 15% more CPU
    /// (measured in the real program, docs/models.md "Live latency in the real program"); the
    /// reader, voice activity detection and drawing take little of the other core. Files, one:
    /// `import` and the second pass run beside other work (tests, `serve`), where whisper.cpp's
    /// spinning threads would contend.
    public var decodeThreads: Int {
        self == .live ? min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
    }
}
