import CWhisper
import CWhisperLoader
import Foundation
import LiveTranscriberCore
import Synchronization

/// Where the Whisper model and the Silero VAD model live (ggml files, as whisper.cpp loads them).
public struct WhisperModelFiles: Sendable, Hashable {
    /// A Whisper model in ggml form: the converted default, or any official `ggml-*.bin` file.
    public var model: String
    /// Silero VAD in ggml form.
    public var voiceActivityModel: String

    public init(model: String, voiceActivityModel: String) {
        self.model = model
        self.voiceActivityModel = voiceActivityModel
    }

    /// The folder holding the models: `$LIVETRANSCRIBER_MODELS` when set; else
    /// `<prefix>/share/livetranscriber/models` of an installed binary (`make install`: the program
    /// in `<prefix>/bin` or the full program in `<prefix>/lib/livetranscriber`); else
    /// `.deps/models` in the source tree this binary was built from (`make run`, `make test`).
    public static var installedFolder: String {
        if let folder = ProcessInfo.processInfo.environment["LIVETRANSCRIBER_MODELS"], !folder.isEmpty { return folder }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let folder = executable.deletingLastPathComponent()
            for prefix in [folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()] {
                let shared = prefix.appendingPathComponent("share/livetranscriber/models")
                if FileManager.default.fileExists(atPath: shared.path) { return shared.path }
            }
        }
        return sourceTreeFolder
    }

    /// `.deps/models` in the source tree this binary was built from: the folder `make deps` fills.
    public static var sourceTreeFolder: String {
        var url = URL(fileURLWithPath: #filePath)  // <root>/Sources/LiveTranscriberLinux/Recognition/WhisperRecognizer.swift
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".deps/models").path
    }

    /// The file name of the Silero voice activity detection model.
    public static let voiceActivityFileName = "ggml-silero-vad.bin"

    /// What messages call the model file at `path`: "voice activity detection model" for
    /// `ggml-silero-vad.bin`, else "whisper model".
    public static func modelNoun(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent == voiceActivityFileName ? "voice activity detection model" : "whisper model"
    }

    /// How the user gets back a model file that is missing (`damaged` false) or cannot be loaded:
    /// `make deps` only when the file belongs in the source tree's `.deps/models` (`sourceTree`);
    /// otherwise (an installed program, or `LIVETRANSCRIBER_MODELS`) reinstall, or put the file in
    /// the folder named, or point `LIVETRANSCRIBER_MODELS` at a folder holding it.
    public static func installAdvice(for path: String, damaged: Bool, sourceTree: String = sourceTreeFolder) -> String {
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent()
        if folder.standardizedFileURL.resolvingSymlinksInPath().path
            == URL(fileURLWithPath: sourceTree).standardizedFileURL.resolvingSymlinksInPath().path {
            return damaged ? "run `make deps` to reinstall it" : "run `make deps` to install it"
        }
        let copy = damaged ? "a good copy of \(file.lastPathComponent)" : file.lastPathComponent
        return "reinstall LiveTranscriber or put \(copy) in \(folder.path) (or set LIVETRANSCRIBER_MODELS to a folder that holds it)"
    }

    /// Whisper base (multilingual) and Silero VAD as `make run` / `make test` install them.
    public static var installed: WhisperModelFiles {
        WhisperModelFiles(model: installedFolder + "/ggml-base.bin",
                          voiceActivityModel: installedFolder + "/" + voiceActivityFileName)
    }

    /// The installed files with `model` replaced by a user's own ggml file when given.
    public static func installed(model: String?) -> WhisperModelFiles {
        var files = installed
        if let model { files.model = model }
        return files
    }

    /// True when both files exist.
    public var areInstalled: Bool { missingFile == nil }

    /// The first of the two files that is absent (the Whisper model first), nil when both are there.
    public var missingFile: String? {
        [model, voiceActivityModel].first { !FileManager.default.fileExists(atPath: $0) }
    }
}

/// Why the whisper engine could not start or run.
public enum WhisperError: Error, Equatable, CustomStringConvertible {
    /// A model file is absent.
    case modelMissing(path: String)
    /// A model file is there but whisper.cpp cannot load it (damaged, truncated, not ggml, wrong kind).
    case modelUnreadable(path: String)
    /// The path names a folder, not a model file.
    case modelIsFolder(path: String)
    /// The model file is there but cannot be opened for reading (permissions).
    case modelUnopenable(path: String)
    /// A model file the user named with `--model` is absent or cannot be loaded.
    case userModelUnusable(path: String, missing: Bool)
    /// The model does not know the language (an English-only model asked for another, or an unknown code).
    case languageUnsupported(language: String, model: String)
    /// An English-only model was asked to translate (whisper's translate task needs a multilingual model).
    case translationUnsupported(model: String)
    /// whisper.cpp failed to decode or to run voice activity detection.
    case decodeFailed(function: String, code: Int32)

    public var description: String {
        switch self {
        case .modelMissing(let path):
            return "the \(WhisperModelFiles.modelNoun(path)) is missing at \(path); "
                + "\(WhisperModelFiles.installAdvice(for: path, damaged: false)), or use --engine pocketsphinx"
        case .modelUnreadable(let path):
            return "the \(WhisperModelFiles.modelNoun(path)) \(path) cannot be loaded: it is damaged or truncated; "
                + "\(WhisperModelFiles.installAdvice(for: path, damaged: true)), or use --engine pocketsphinx"
        case .modelIsFolder(let path):
            return "\(path) is a folder, not a \(WhisperModelFiles.modelNoun(path)) file (a ggml .bin file)"
        case .modelUnopenable(let path):
            return "the \(WhisperModelFiles.modelNoun(path)) \(path) cannot be opened for reading (check its permissions)"
        case .userModelUnusable(let path, let missing):
            return missing ? "there is no model file at \(path) (given with --model)"
                : "the model \(path) cannot be loaded: it is damaged, truncated or not a ggml Whisper model (given with --model)"
        case .languageUnsupported(let language, let model):
            return "the whisper model \(model) does not support the language '\(language)'"
        case .translationUnsupported(let model):
            return "the whisper model \(model) is English-only and cannot translate; use a multilingual model (such as ggml-base.bin) with --model"
        case .decodeFailed(let function, let code):
            return "whisper.cpp failed in \(function) (code \(code))"
        }
    }
}

/// A loaded Whisper model and Silero VAD model; recognizers made from it share the weights.
///
/// Loading takes a second or so and about 150 MB for Whisper base: load once, make many recognizers.
///
/// Why `@unchecked Sendable` is safe: `context` holds the model's weights, which whisper.cpp only
/// reads after loading (every decode runs on its own `whisper_state`, `WhisperDecoder`); the other
/// stored properties are constants, and `loadedContexts` is a `Mutex`.
public final class WhisperEngine: @unchecked Sendable {
    let context: OpaquePointer
    let files: WhisperModelFiles
    /// Threads per decode.
    public let threads: Int32
    /// True when whisper.cpp times each token's onset by DTW over the model's alignment heads
    /// (`t_dtw`): asked for at loading, and the heads known for the model's shape (tiny, base, small,
    /// medium, each also `.en`, large-v3 and -turbo).
    public let hasTokenOnsets: Bool

    /// Whisper contexts loaded and not yet freed, by model path: a failed initializer runs no
    /// `deinit`, so what it loaded must be freed on its failure path (for tests).
    static let loadedContexts = Mutex<[String: Int]>([:])

    /// Loads both models: a damaged or truncated file is refused, never a crash, and nothing of a
    /// failed load stays in memory.
    /// Throws `WhisperError.modelMissing`, `.modelIsFolder`, `.modelUnopenable` or `.modelUnreadable`.
    /// - Parameter tokenOnsets: time each token's onset by DTW (`hasTokenOnsets`), for decodes of a file's packs
    ///   of utterances; costs one more decoder pass per decode, so live recognition goes without.
    public init(files: WhisperModelFiles = .installed, threads: Int = 1, tokenOnsets: Bool = false) throws {
        for path in [files.model, files.voiceActivityModel] { try Self.checkFile(path) }
        lt_whisper_silence_logs()
        // The VAD model first (a few hundred KB, freed at once): a damaged file fails here, before
        // the Whisper model (about 150 MB) is loaded, rather than at the first block.
        _ = try SileroVoiceActivityDetector(path: files.voiceActivityModel)
        var status = LT_WHISPER_LOADED
        var onsets = false
        let loaded = lt_whisper_load_model(files.model, &status, tokenOnsets, &onsets)
        if loaded != nil { Self.loadedContexts.withLock { $0[files.model, default: 0] += 1 } }
        guard status == LT_WHISPER_LOADED, let context = loaded else {
            // A failed initializer runs no deinit: free what was loaded before throwing.
            if let loaded { Self.free(loaded, model: files.model) }
            try Self.check(status, path: files.model)
            throw WhisperError.modelUnreadable(path: files.model)
        }
        self.context = context
        self.files = files
        self.hasTokenOnsets = onsets
        self.threads = Int32(max(1, threads))
    }

    deinit { Self.free(context, model: files.model) }

    private static func free(_ context: OpaquePointer, model: String) {
        whisper_free(context)
        loadedContexts.withLock { $0[model, default: 0] -= 1 }
    }

    /// Throws `WhisperError.modelMissing` or `.modelIsFolder` unless `path` names a file.
    static func checkFile(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw WhisperError.modelMissing(path: path) }
        if isFolder.boolValue { throw WhisperError.modelIsFolder(path: path) }
    }

    /// The error for a load that did not end with `LT_WHISPER_LOADED`.
    static func check(_ status: lt_whisper_load_status, path: String) throws {
        switch status {
        case LT_WHISPER_LOADED: return
        case LT_WHISPER_UNOPENABLE: throw WhisperError.modelUnopenable(path: path)
        default: throw WhisperError.modelUnreadable(path: path)  // rejected, threw, or truncated
        }
    }

    /// True for a model that knows many languages (base, small, large), false for English-only ones (base.en).
    public var isMultilingual: Bool { whisper_is_multilingual(context) != 0 }

    /// The tokens Whisper makes of `text` (its byte-pair tokenizer), for bounding a prompt.
    public func tokenCount(_ text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        let count = whisper_tokenize(context, text, nil, 0)  // too small a buffer: minus the count needed
        return Int(count < 0 ? -count : count)
    }

    /// What "auto" means with this model: `LanguageChoice.automatic` for a multilingual one; for an
    /// English-only one, English ("en-US"), the only language it knows.
    public func resolvedChoice(_ language: String) -> String {
        LanguageChoice(language) == .automatic && !isMultilingual ? "en-US" : language
    }

    /// True when Whisper's tokenizer knows the language code ("de", "yue"); no model is needed.
    public static func knowsLanguage(_ code: String) -> Bool {
        lt_whisper_silence_logs()  // whisper_lang_id logs an unknown code on stderr; the caller says it in one line
        return !code.isEmpty && whisper_lang_id(code) >= 0
    }

    /// The Whisper language code for a BCP 47 tag ("en-US" → "en"), checked against the model.
    /// Throws `WhisperError.languageUnsupported`.
    public func whisperLanguage(for tag: String) throws -> String {
        let code = LanguageTag.primarySubtag(tag)
        let fileName = URL(fileURLWithPath: files.model).lastPathComponent
        guard Self.knowsLanguage(code) else {
            throw WhisperError.languageUnsupported(language: tag, model: fileName)
        }
        if !isMultilingual && code != "en" { throw WhisperError.languageUnsupported(language: tag, model: fileName) }
        return code
    }

    /// The bare engine, for the benchmark's reference: `whisper_full` on a whole 16 kHz recording with
    /// whisper.cpp's default greedy settings (30 s windows, no voice activity detection), the text out.
    public func transcribeWhole(_ samples: [Float], language: String = "en-US") throws -> String {
        let code = try whisperLanguage(for: language)
        guard let state = whisper_init_state(context) else { throw WhisperError.modelUnreadable(path: files.model) }
        defer { whisper_free_state(state) }
        var params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY)
        params.n_threads = threads
        params.print_progress = false
        params.print_realtime = false
        params.print_timestamps = false
        let result = code.withCString { languagePointer in
            params.language = languagePointer
            return samples.withUnsafeBufferPointer {
                whisper_full_with_state(context, state, params, $0.baseAddress, Int32($0.count))
            }
        }
        guard result == 0 else { throw WhisperError.decodeFailed(function: "whisper_full_with_state", code: result) }
        return (0..<whisper_full_n_segments_from_state(state))
            .map { String(cString: whisper_full_get_segment_text_from_state(state, $0)) }
            .joined()
    }

    /// A decoder with its own whisper.cpp state, for a benchmark that builds its own `UtteranceRecognizer`.
    /// - Parameter language: BCP 47 tag; throws `WhisperError.languageUnsupported`.
    public func makeDecoder(language: String = "en-US") throws -> any UtteranceDecoder {
        try WhisperDecoder(engine: self, language: whisperLanguage(for: language))
    }

    /// A recognizer for one stream.
    /// - Parameters:
    ///   - language: BCP 47 tag such as "en-US" or "de", or "auto" to detect it on the first
    ///     utterance (`LanguageLock`; English with an English-only model); throws
    ///     `WhisperError.languageUnsupported`.
    ///   - mode: `.live` decodes on a background thread with interim text (recording); `.file` decodes
    ///     in order on the caller's thread, finals only; `.fileInBackground` decodes as `.file` on a
    ///     background thread (`RecognitionMode`). Files with token onsets (`hasTokenOnsets`) decode
    ///     their utterances in packs, in Whisper's whole window (`UtterancePacking`), else each alone.
    ///   - vocabulary: given to every decode as Whisper's initial prompt; bound it first
    ///     (`Vocabulary.bounded`, `tokenCount`).
    ///   - languageWarning: told the one warning line when the speech contradicts a named language.
    /// - Parameter translate: Whisper's translate task: English text of speech in any language.
    /// - Throws: `WhisperError.translationUnsupported` when `translate` and the model is English-only.
    public func makeRecognizer(language: String = "en-US", mode: RecognitionMode, clock: any WallClock = SystemClock(),
                               vocabulary: Vocabulary = Vocabulary(), recentLanguage: String? = nil, translate: Bool = false,
                               languageWarning: @escaping (String) -> Void = { _ in }) throws -> UtteranceRecognizer {
        if translate && !isMultilingual { throw WhisperError.translationUnsupported(model: URL(fileURLWithPath: files.model).lastPathComponent) }
        let language = resolvedChoice(language)
        let automatic = LanguageChoice(language) == .automatic
        let code = try whisperLanguage(for: automatic ? "en" : language)
        let decoder = try WhisperDecoder(engine: self, language: code, prompt: vocabulary.isEmpty ? nil : vocabulary.prompt,
                                         wholeWindowFinals: !mode.interims && hasTokenOnsets, translate: translate, threads: mode.decodeThreads)
        // Silero hears quiet and whispered speech only when it is brought up to a normal level.
        let detector = LevelNormalizedDetector(try SileroVoiceActivityDetector(path: files.voiceActivityModel),
                                               sampleRate: Int(WHISPER_SAMPLE_RATE))
        return UtteranceRecognizer(
            language: language, sampleRate: Int(WHISPER_SAMPLE_RATE), detector: detector, decoder: decoder,
            worker: mode.decodesInBackground ? BackgroundDecodeWorker() : InlineDecodeWorker(), clock: clock,
            interims: mode.interims,
            packing: hasTokenOnsets && !mode.interims ? UtterancePacking() : .alone,
            recentLanguage: recentLanguage, languageWarning: languageWarning
        )
    }
}

/// Silero VAD through whisper.cpp (`whisper_vad_detect_speech_no_reset`): one speech probability per
/// 512 samples at 16 kHz, its LSTM state carried from one call to the next.
public final class SileroVoiceActivityDetector: VoiceActivityDetector {
    private let context: OpaquePointer
    public let windowSamples = 512

    /// Loads the model: a damaged or truncated file is refused, never a crash.
    /// Throws `WhisperError.modelMissing`, `.modelIsFolder`, `.modelUnopenable` or `.modelUnreadable`.
    public init(path: String) throws {
        try WhisperEngine.checkFile(path)
        lt_whisper_silence_logs()
        var status = LT_WHISPER_LOADED
        let loaded = lt_whisper_load_vad_model(path, &status)
        try WhisperEngine.check(status, path: path)
        guard let context = loaded else { throw WhisperError.modelUnreadable(path: path) }
        // A new context's LSTM state is not cleared: without this, probabilities come out as garbage.
        whisper_vad_reset_state(context)
        self.context = context
    }

    deinit { whisper_vad_free(context) }

    public func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        guard !samples.isEmpty else { return [] }
        let ok = samples.withUnsafeBufferPointer {
            whisper_vad_detect_speech_no_reset(context, $0.baseAddress, Int32($0.count))
        }
        guard ok else { throw WhisperError.decodeFailed(function: "whisper_vad_detect_speech_no_reset", code: -1) }
        let count = Int(whisper_vad_n_probs(context))
        guard let probabilities = whisper_vad_probs(context) else { return [] }
        return Array(UnsafeBufferPointer(start: probabilities, count: count))
    }
}

/// Decodes one utterance with whisper.cpp's `whisper_full_with_state`: greedy, temperature fallback for finals only,
/// no context from earlier utterances, one segment, token-level timestamps joined into words.
///
/// A cancelled decode stops at whisper.cpp's next check of its `abort_callback`: before the encoder
/// runs, after it, and after each decoder step (the encoder itself cannot be interrupted).
///
/// Why `@unchecked Sendable` is safe: `state` (whisper.cpp's per-decode buffers) is used by one call
/// at a time, on the decode worker's thread (`DecodeWorker` runs one job at a time, and
/// `UtteranceRecognizer` joins it before it is released); what another thread touches (`language`,
/// the abort-check counter) is in a `Mutex`, and the rest is constant.
public final class WhisperDecoder: UtteranceDecoder, @unchecked Sendable {
    private let engine: WhisperEngine
    private let state: OpaquePointer
    /// The Whisper code decodes use ("en"); set by `useLanguage` on the worker's thread.
    private let language: Mutex<String>
    /// The initial prompt of every decode (the vocabulary), nil for none.
    private let prompt: String?
    /// Final decodes hear Whisper's whole 30 s window and may give several segments, as whisper.cpp
    /// decodes a file (a file's pack of utterances, `UtterancePacking`), their words timed by DTW
    /// onsets (the engine's `hasTokenOnsets`); else the audio's own frames.
    private let wholeWindowFinals: Bool
    /// Whisper's translate task: every decode gives English text, whatever the language heard.
    private let translate: Bool
    /// whisper.cpp threads per decode and per language identification.
    let threads: Int32
    /// How many times whisper.cpp asked whether to stop, over all decodes, and who is told of each
    /// check with its number (for tests: a cancellation at an exact point of a decode).
    private let checks = Mutex<(count: Int, observer: (@Sendable (Int) -> Void)?)>((0, nil))
    /// The segments the last decode dropped as invented phrases (`droppedPhrasesOfLastDecode`).
    private let dropped = Mutex<[DroppedPhrase]>([])
    var abortChecks: Int { checks.withLock { $0.count } }
    func observeAbortChecks(_ observer: (@Sendable (Int) -> Void)?) { checks.withLock { $0.observer = observer } }

    /// - Parameters:
    ///   - language: a Whisper language code ("en").
    ///   - prompt: Whisper's initial prompt for every decode (`Vocabulary.prompt`), nil for none.
    ///   - wholeWindowFinals: files: each final decode encodes the whole 30 s window (see the property).
    ///   - translate: Whisper's translate task (English text) instead of transcribe.
    /// - Parameter threads: whisper.cpp threads per decode; nil for the engine's (`WhisperEngine.threads`).
    init(engine: WhisperEngine, language: String, prompt: String? = nil, wholeWindowFinals: Bool = false, translate: Bool = false,
         threads: Int? = nil) throws {
        guard let state = whisper_init_state(engine.context) else {
            throw WhisperError.modelUnreadable(path: engine.files.model)
        }
        self.engine = engine
        self.threads = threads.map { Int32(max(1, $0)) } ?? engine.threads
        self.state = state
        self.language = Mutex(language)
        self.prompt = prompt
        self.wholeWindowFinals = wholeWindowFinals
        self.translate = translate
    }

    /// Whisper's language identification, as `whisper_lang_auto_detect_with_state` computes it: the
    /// encoder over the samples (at least 7.5 s of frames), then one decoder step from the
    /// start-of-transcript token, the softmax of the language tokens' logits; nil for an
    /// English-only model. About 1 s of CPU with Whisper base (`identificationContext`).
    public var identifiesLanguages: Bool { engine.isMultilingual }

    public func identifyLanguage(_ samples: [Float]) throws -> LanguageGuess? {
        guard engine.isMultilingual, !samples.isEmpty else { return nil }
        let rate = Int(WHISPER_SAMPLE_RATE)
        let audio = Self.padded(samples)
        // A decode of one token encodes the samples with `identificationContext` frames (or the
        // audio's when more); whisper.cpp's own identification would encode as many as the state's
        // last decode asked for, 1500 (30 s) on a new state: about 5 s of CPU with Whisper base.
        var params = utteranceParameters()
        params.max_tokens = 1
        params.temperature_inc = 0
        params.audio_ctx = Int32(min(1500, max(Int(Self.identificationContext), Int(Double(audio.count) / Double(rate) * 50) + 64)))
        let primed = "en".withCString { english in
            params.language = english
            return audio.withUnsafeBufferPointer { whisper_full_with_state(engine.context, state, params, $0.baseAddress, Int32($0.count)) }
        }
        guard primed == 0 else { throw WhisperError.decodeFailed(function: "whisper_full_with_state", code: primed) }
        // That decode encoded the samples; the encoder's output is still in the state.
        return try languageOfEncodedAudio()
    }

    /// The languages of the audio the last `decode` heard (its last 30 s window): one decoder step
    /// on the encoder output that decode left in the state. Nil for an English-only model.
    /// - Throws: `WhisperError.decodeFailed` when the decoder step fails.
    public func languageOfLastDecode() throws -> LanguageGuess? {
        guard engine.isMultilingual else { return nil }
        return try languageOfEncodedAudio()
    }

    /// The segments the last `decode` dropped as one of Whisper's invented phrases, decoded unsure
    /// (`InventedPhrases.isInvented`), times in seconds from its first sample.
    public func droppedPhrasesOfLastDecode() -> [DroppedPhrase] { dropped.withLock { $0 } }

    /// One decoder step from the start-of-transcript token on the encoder output in the state gives
    /// the language tokens' logits: what whisper_lang_auto_detect_with_state computes, without
    /// running the encoder a second time (half the CPU of an identification).
    private func languageOfEncodedAudio() throws -> LanguageGuess {
        var start = whisper_token_sot(engine.context)
        let stepped = whisper_decode_with_state(engine.context, state, &start, 1, 0, threads)
        guard stepped == 0, let logits = whisper_get_logits_from_state(state) else {
            throw WhisperError.decodeFailed(function: "whisper_decode_with_state", code: stepped)
        }
        let languages = 0...Int(whisper_lang_max_id())
        let scores = languages.map { Double(logits[Int(whisper_token_lang(engine.context, Int32($0)))]) }
        let top = scores.max() ?? 0
        let weights = scores.map { exp($0 - top) }
        let total = weights.reduce(0, +)
        let probabilities = weights.map { Float($0 / total) }
        var guess: [String: Double] = [:]
        for (id, probability) in probabilities.enumerated() where probability > 0 {
            if let code = whisper_lang_str(Int32(id)) { guess[String(cString: code)] = Double(probability) }
        }
        return LanguageGuess(probabilities: guess)
    }

    /// Later decodes use `language`'s primary subtag when Whisper knows it (an unknown one keeps
    /// the current language).
    public func useLanguage(_ language: String) {
        guard let code = try? engine.whisperLanguage(for: language) else { return }
        self.language.withLock { $0 = code }
    }

    /// Whisper's sample rate, 16 kHz: what `decode` and `identifyLanguage` take.
    var sampleRate: Int { Int(WHISPER_SAMPLE_RATE) }

    deinit { whisper_free_state(state) }

    /// Finals shorter than this many seconds get `shortFinalContext` encoder frames.
    static let shortFinalSeconds = 2.5
    /// Finals shorter than this many seconds get the full 30 s window (1500 frames).
    static let veryShortFinalSeconds = 1.2
    /// Encoder frames (50 a second) for a short final: 15 s.
    static let shortFinalContext: Int32 = 750
    /// Encoder frames for language identification at least: 7.5 s. Measured on espeak-ng's German
    /// sentence (3 s): the audio's own 214 frames gave 74% German for about 1.1 s of CPU (the one-token
    /// decode that sets the context included), 375 gave 89% for 2.3 s, 750 gave 93% for 5 s, the full
    /// 30 s window 91% for 5.3 s (identification alone); LibriVox stays 99.6–99.9% English throughout.
    static let identificationContext: Int32 = 375

    fileprivate func countAbortCheck() {
        let (count, observer) = checks.withLock {
            $0.count += 1
            return ($0.count, $0.observer)
        }
        observer?(count)
    }

    /// whisper.cpp wants at least a second of audio: `samples` (16 kHz mono) padded with silence to one second.
    static func padded(_ samples: [Float]) -> [Float] {
        let rate = Int(WHISPER_SAMPLE_RATE)
        return samples.count >= rate ? samples : samples + [Float](repeating: 0, count: rate - samples.count)
    }

    /// Greedy decoding of one utterance on this engine's threads: no context from earlier
    /// utterances, one segment, nothing printed.
    private func utteranceParameters() -> whisper_full_params {
        var params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY)
        params.n_threads = threads
        params.no_context = true
        params.single_segment = true
        params.print_progress = false
        params.print_realtime = false
        params.print_special = false
        params.print_timestamps = false
        return params
    }

    public func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        dropped.withLock { $0 = [] }
        if cancellation.isCancelled { throw CancellationError() }
        let rate = Int(WHISPER_SAMPLE_RATE)
        let audio = Self.padded(samples)
        var params = utteranceParameters()
        params.token_timestamps = true
        params.max_tokens = Int32(maxTokens)
        params.suppress_blank = true
        params.suppress_nst = true
        params.temperature = 0
        // Finals: whisper.cpp's temperature fallback (decode again at 0.2, 0.4, … when the text
        // compresses too well, entropy < 2.4, or its mean log-probability is below -1): what breaks
        // a loop. Interims stay greedy and single-pass, for speed.
        params.temperature_inc = interim ? 0 : 0.2
        params.entropy_thold = 2.4
        params.logprob_thold = -1
        params.detect_language = false
        params.translate = translate
        // Encode only the audio there is (50 encoder frames a second, plus 1.28 s of margin) instead of
        // Whisper's whole 30 s window: an utterance is at most 15 s, and a full window per utterance
        // would cost several times whisper.cpp's own CPU time on continuous speech.
        let frames = Int(Double(audio.count) / Double(rate) * 50) + (interim ? 32 : 64)
        params.audio_ctx = Int32(min(1500, frames))
        // A short final gets more encoder context than its own audio: with only its second or two,
        // Whisper misreads a word said alone ("yes." came out "ds", a 0.9 s phrase looped three
        // times). Under 2.5 s it gets 15 s of context, under 1.2 s whisper.cpp's full 30 s window
        // (a lone 0.3 s "yes." still came out "ES." with 15 s), reading them as whisper.cpp does alone.
        let seconds = Double(samples.count) / Double(rate)
        if !interim, seconds < Self.shortFinalSeconds {
            params.audio_ctx = max(params.audio_ctx, seconds < Self.veryShortFinalSeconds ? 1500 : Self.shortFinalContext)
        }
        // A file's pack of utterances (up to about 22 s) is decoded as whisper.cpp decodes a file: the
        // whole window, with Whisper's own segments. Measured on the speech sets (BENCHMARKS.md), a
        // sentence in a high voice 40 dB down lost 5 of 71 words in its own frames and 1 in the window.
        if !interim, wholeWindowFinals {
            params.audio_ctx = 1500
            params.single_segment = false
        }
        // whisper.cpp calls this on the decoding thread before the encoder and after each graph it
        // computes; true stops the decode, which then returns an error code (or no segments).
        let abort = AbortCheck(cancellation: cancellation, decoder: self)
        let box = Unmanaged.passRetained(abort)
        defer { box.release() }
        params.abort_callback = { data in
            guard let data else { return false }
            return Unmanaged<AbortCheck>.fromOpaque(data).takeUnretainedValue().shouldStop()
        }
        params.abort_callback_user_data = box.toOpaque()
        params.encoder_begin_callback = { _, _, data in
            guard let data else { return true }
            return !Unmanaged<AbortCheck>.fromOpaque(data).takeUnretainedValue().shouldStop()
        }
        params.encoder_begin_callback_user_data = box.toOpaque()
        let language = self.language.withLock { $0 }
        let code = language.withCString { languagePointer in
            params.language = languagePointer
            // The vocabulary as Whisper's initial prompt: text the audio seems to follow.
            return (prompt ?? "").withCString { promptPointer in
                params.initial_prompt = prompt == nil ? nil : promptPointer
                return audio.withUnsafeBufferPointer {
                    whisper_full_with_state(engine.context, state, params, $0.baseAddress, Int32($0.count))
                }
            }
        }
        if cancellation.isCancelled { throw CancellationError() }
        guard code == 0 else { throw WhisperError.decodeFailed(function: "whisper_full_with_state", code: code) }
        // Words stamped past the samples given (in a short decode's padding) are dropped by the
        // recognizer for every decoder (`DecodedWords.withinAudio`).
        return words(onsets: !interim && wholeWindowFinals)
    }

    /// Words of the decoded segments: a token starting with a space starts a word; special tokens
    /// (end of text, timestamps, languages) are skipped; bracketed annotations such as
    /// "[BLANK_AUDIO]" or "(music)" and segments whisper.cpp judges to be no speech are dropped.
    ///
    /// - Parameters:
    ///   - onsets: word starts from whisper.cpp's DTW token times (`t_dtw`, cross-attention alignment),
    ///     which hold over a whole window with several segments; else from its token timestamps
    ///     (`t0`, `t1`), which drift by up to 2 s there but are close within one short segment.
    private func words(onsets: Bool) -> [WordTiming] {
        let endOfText = whisper_token_eot(engine.context)
        var words: [WordTiming] = []
        for segment in 0..<whisper_full_n_segments_from_state(state) {
            var pieces: [(bytes: [UInt8], start: Double, end: Double)] = []
            var logProbability: Float = 0
            var tokens = 0
            for index in 0..<whisper_full_n_tokens_from_state(state, segment) {
                let data = whisper_full_get_token_data_from_state(state, segment, index)
                guard data.id < endOfText, let raw = whisper_full_get_token_text_from_state(engine.context, state, segment, index)
                else { continue }
                let bytes = Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }
                logProbability += data.plog
                tokens += 1
                let start = Double(onsets && data.t_dtw >= 0 ? data.t_dtw : data.t0) / 100
                let end = max(start, Double(data.t1) / 100)
                if bytes.first == UInt8(ascii: " ") || pieces.isEmpty {
                    pieces.append((Array(bytes.drop { $0 == UInt8(ascii: " ") }), start, end))
                } else {
                    pieces[pieces.count - 1].bytes += bytes
                    pieces[pieces.count - 1].end = max(pieces[pieces.count - 1].end, end)
                }
            }
            // Whisper's own rule for silence: likely no speech and not confident in the text.
            let noSpeech = whisper_full_get_segment_no_speech_prob_from_state(state, segment)
            if tokens > 0, noSpeech > 0.6, logProbability / Float(tokens) < -1 { continue }
            // One of Whisper's known invented phrases, decoded unsure ("Thank you for watching.").
            let text = pieces.map { String(decoding: $0.bytes, as: UTF8.self) }.joined(separator: " ")
            if tokens > 0, InventedPhrases.isInvented(text, meanLogProbability: logProbability / Float(tokens), noSpeechProbability: noSpeech) {
                dropped.withLock { $0.append(DroppedPhrase(text: text, startSeconds: pieces.first?.start ?? 0)) }
                continue
            }
            for piece in pieces {
                let word = String(decoding: piece.bytes, as: UTF8.self)
                guard !word.isEmpty, !Self.isAnnotation(word) else { continue }
                words.append(WordTiming(word: word, startSeconds: piece.start, endSeconds: piece.end))
            }
        }
        // DTW gives each token's onset only: a word ends where the next begins, the last one at its
        // token-timestamp end.
        if onsets {
            for index in words.indices.dropLast() {
                words[index].endSeconds = max(words[index].startSeconds, words[index + 1].startSeconds)
            }
        }
        return words
    }

    /// "[BLANK_AUDIO]", "(music)", "*laughs*", "♪": what Whisper writes for sounds that are not words.
    static func isAnnotation(_ word: String) -> Bool {
        guard let first = word.first else { return true }
        return first == "[" || first == "(" || first == "*" || first == "♪" || word.allSatisfy { $0.isPunctuation }
    }
}

/// What whisper.cpp's abort and encoder-begin callbacks read: the decode's cancellation; each check is counted.
private final class AbortCheck {
    let cancellation: DecodeCancellation
    let decoder: WhisperDecoder

    init(cancellation: DecodeCancellation, decoder: WhisperDecoder) {
        self.cancellation = cancellation
        self.decoder = decoder
    }

    func shouldStop() -> Bool {
        decoder.countAbortCheck()
        return cancellation.isCancelled
    }
}
