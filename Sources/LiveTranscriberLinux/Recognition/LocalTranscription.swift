import Foundation
import LiveTranscriberCore

/// Builds the Linux transcription chain and runs it over whole files.
public enum LocalTranscription {
    /// A pipeline for audio of `format` into `recognizer`: libsoxr to the recognizer's rate when needed.
    public static func makePipeline(for format: AudioFormat, recognizer: any SpeechRecognizer) throws -> TranscriptionPipeline {
        let rate = recognizer.inputFormat.sampleRate
        let resampler: (any Resampler)? = format.sampleRate == rate
            ? nil
            : try SoxrResampler(inputRate: format.sampleRate, outputRate: rate)
        return TranscriptionPipeline(resampler: resampler, recognizer: recognizer)
    }

    /// A pipeline into pocketsphinx's US English model.
    public static func makePipeline(for format: AudioFormat) throws -> TranscriptionPipeline {
        try makePipeline(for: format, recognizer: try PocketSphinxRecognizer(model: .englishUS))
    }

    /// Transcribes a whole source as fast as possible and returns its final segments in order.
    /// - Parameter progress: called after each block, and about every 0.1 s while the last
    ///   decodes finish, with the seconds of audio transcribed so far (from the start; decoded,
    ///   not merely read: `TranscriptionPipeline.samplesTranscribed`), never less than the call
    ///   before; the last call gives all the audio read.
    /// - Parameter isCancelled: asked after each block and about every 0.1 s while the last
    ///   decodes finish; once it returns true, the decode in flight is cancelled and joined.
    /// - Throws: `TranscriptionCancelled` once `isCancelled` returned true; the source's and
    ///   the recognizer's errors.
    public static func transcribe(
        _ source: any AudioSource, recognizer: any SpeechRecognizer,
        progress: (Double) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws -> [TranscriptSegment] {
        let pipeline = try makePipeline(for: source.format, recognizer: recognizer)
        var assembler = TranscriptAssembler()
        let block = max(1, source.format.sampleRate / 10)
        // The frontier a recognizer states can step back a little (an utterance's start found a
        // few windows earlier once it ends): the progress given never does.
        var reached = 0.0
        func report(_ samples: Int) {
            reached = max(reached, Double(samples) / Double(pipeline.recognizerSampleRate))
            progress(reached)
        }
        while let buffer = try source.read(maxFrames: block) {
            if isCancelled() {
                pipeline.cancel()
                throw TranscriptionCancelled()
            }
            for event in try pipeline.process(buffer) { _ = assembler.apply(event) }
            report(pipeline.samplesTranscribed)
        }
        // A file read faster than it is decoded ends with decodes pending: each one that ends is
        // progress too (the page's bar would otherwise wait at the first utterance until the end).
        let ending = try pipeline.finish(stopRequested: false, abandoning: {
            report(pipeline.samplesTranscribed)
            return isCancelled()
        })
        if isCancelled() { throw TranscriptionCancelled() }
        for event in ending.events { _ = assembler.apply(event) }
        report(pipeline.samplesRecognized)
        return assembler.finals
    }
}

/// `LocalTranscriber` over the Linux pipeline: libsndfile decodes, then the chosen engine
/// recognizes in the recording's language.
public struct LocalFileTranscriber: LocalTranscriber {
    public let engine: SpeechEngineKind
    /// A model file the user brought, or nil for the installed one.
    public let model: String?
    /// The library's recent language (`RecentLanguage.of`), for a file too short to identify.
    public let recentLanguage: String?
    /// Whisper's translate task: the segments are English, whatever was spoken (`--translate`).
    public let translate: Bool

    public init(engine: SpeechEngineKind, model: String? = nil, recentLanguage: String? = nil, translate: Bool = false) {
        self.engine = engine
        self.model = model
        self.recentLanguage = recentLanguage
        self.translate = translate
    }

    /// - Throws: `AudioFileError` for a missing or unreadable file, `RecognizerError` for the
    ///   model or a language the engine does not know.
    public func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment] {
        try transcript(of: audioFile, language: language, vocabulary: Vocabulary(), languageWarning: { _ in }).segments
    }

    /// The transcript in `language` ("auto" detects it), with `vocabulary` as whisper's prompt.
    /// - Throws: as `transcribe(audioFile:language:)`.
    public func transcript(of audioFile: URL, language: String, vocabulary: Vocabulary,
                           languageWarning: @escaping (String) -> Void) throws -> LocalTranscript {
        try transcript(of: audioFile, language: language, vocabulary: vocabulary, languageWarning: languageWarning, progress: { _ in })
    }

    /// `transcript(of:language:vocabulary:languageWarning:)`, telling `progress` after each block
    /// of 0.1 s how many seconds of the file have been transcribed (serve's page shows it), and
    /// stopping once `isCancelled` returns true (`LocalTranscription.transcribe`).
    /// - Throws: as `transcribe(audioFile:language:)`; `TranscriptionCancelled` when cancelled.
    public func transcript(of audioFile: URL, language: String, vocabulary: Vocabulary,
                           languageWarning: @escaping (String) -> Void,
                           progress: (Double) -> Void, isCancelled: () -> Bool = { false }) throws -> LocalTranscript {
        let recognizer = try LinuxSpeechEngines.make(engine, language: language, model: model, vocabulary: vocabulary,
                                                     recentLanguage: recentLanguage, translate: translate, languageWarning: languageWarning)
        // The reader that reads all of the file (every link of a chained Ogg file, an MP3 to its end).
        let segments = try LocalTranscription.transcribe(AudioFileReader.open(path: audioFile.path), recognizer: recognizer,
                                                             progress: progress, isCancelled: isCancelled)
        // Segments in their own languages (`SegmentLanguages`): the recording's is the one with the most speech.
        let main = SegmentLanguages.mainLanguage(segments, recordingLanguage: recognizer.language)
        return LocalTranscript(segments: main.segments, language: main.language, notes: recognizer.notes)
    }
}

extension LocalFileTranscriber {
    /// Makes the English translation of `recording` with whisper's translate task on this machine
    /// and keeps it next to its transcript (`RecordingTranslation.run`): `retranscribe --translate`,
    /// `import --translate` and the web page's Translate button.
    /// - Parameters:
    ///   - language: the language the audio is decoded from (a BCP 47 tag or "auto").
    ///   - model: a model file the user brought, or nil for the installed one.
    ///   - progress: told the seconds of audio translated so far, as `transcript(of:…progress:)`.
    /// - Returns: the translation's segments as kept, times in seconds from the start of the recording.
    /// - Throws: what `RecordingTranslation.run` throws; `RecognizerError.unsupported` for
    ///   pocketsphinx; `WhisperError.translationUnsupported` for an English-only model.
    @discardableResult
    public static func translate(_ recording: Recording, from language: String, in store: some RecordingStore,
                                 engine: SpeechEngineKind, model: String? = nil,
                                 languageWarning: @escaping (String) -> Void = { _ in },
                                 progress: (Double) -> Void = { _ in }) throws -> [TranscriptSegment] {
        try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { audio in
            try LocalFileTranscriber(engine: engine, model: model, translate: true)
                .transcript(of: audio, language: language, vocabulary: Vocabulary(), languageWarning: languageWarning, progress: progress)
                .segments
        }
    }
}
