import Foundation
import LiveTranscriberCore

/// Makes the Linux speech recognizers by engine name: whisper.cpp or pocketsphinx.
public enum LinuxSpeechEngines {
    private static let loaded = LoadedEngines()

    /// whisper when the installed (or given) Whisper model and the VAD model are there, else pocketsphinx.
    public static func defaultKind(model: String? = nil) -> SpeechEngineKind {
        SpeechEngineKind.defaultKind(whisperModelInstalled: WhisperModelFiles.installed(model: model).areInstalled)
    }

    /// A recognizer for one stream.
    /// - Parameters:
    ///   - language: BCP 47 tag ("en-US"); pocketsphinx knows US English only.
    ///   - model: a ggml Whisper model file instead of the installed one (whisper only).
    ///   - live: interim text from a background decoder (recording); false for files (finals in order).
    /// - Throws: `WhisperError` (missing or damaged model, unsupported language), `RecognizerError` for pocketsphinx.
    public static func make(kind: SpeechEngineKind, language: String = "en-US", model: String? = nil,
                            live: Bool = false) throws -> any SpeechRecognizer {
        switch kind {
        case .whisper:
            return try whisperEngine(model: model).makeRecognizer(language: language, live: live)
        case .pocketsphinx:
            guard language.lowercased() == "en" || language.lowercased().hasPrefix("en-") else {
                throw RecognizerError.languageUnsupported(language: language)
            }
            return try PocketSphinxRecognizer()
        }
    }

    /// The loaded whisper engine for `model` (the installed one when nil); loaded once per process and model.
    public static func whisperEngine(model: String? = nil) throws -> WhisperEngine {
        try loaded.engine(for: WhisperModelFiles.installed(model: model))
    }

    private final class LoadedEngines: @unchecked Sendable {
        private let lock = NSLock()
        private var engines: [WhisperModelFiles: WhisperEngine] = [:]

        func engine(for files: WhisperModelFiles) throws -> WhisperEngine {
            try lock.withLock {
                if let engine = engines[files] { return engine }
                let engine = try WhisperEngine(files: files)
                engines[files] = engine
                return engine
            }
        }
    }
}

/// `LocalTranscriber` over either engine: libsndfile decodes, then `LocalTranscription`.
public struct SpeechEngineFileTranscriber: LocalTranscriber {
    public var kind: SpeechEngineKind
    public var model: String?

    public init(kind: SpeechEngineKind = LinuxSpeechEngines.defaultKind(), model: String? = nil) {
        self.kind = kind
        self.model = model
    }

    /// - Throws: `AudioFileError` for a missing or unreadable file, `WhisperError` or `RecognizerError` for the engine.
    public func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment] {
        let recognizer = try LinuxSpeechEngines.make(kind: kind, language: language, model: model)
        return try LocalTranscription.transcribe(SndFileReader(path: audioFile.path), recognizer: recognizer)
    }
}
