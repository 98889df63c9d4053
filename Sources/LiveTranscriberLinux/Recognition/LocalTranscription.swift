import Foundation
import LiveTranscriberCore

/// Builds the Linux transcription chain and runs it over whole files.
public enum LocalTranscription {
    /// A pipeline for audio of `format`: libsoxr to 16 kHz when needed, then pocketsphinx.
    public static func makePipeline(for format: AudioFormat, model: PocketSphinxModel = .englishUS) throws -> TranscriptionPipeline {
        try makePipeline(for: format, recognizer: PocketSphinxRecognizer(model: model))
    }

    /// A pipeline for audio of `format` into any recognizer (see `LinuxSpeechEngines.make`): libsoxr to its rate when needed.
    public static func makePipeline(for format: AudioFormat, recognizer: any SpeechRecognizer) throws -> TranscriptionPipeline {
        let rate = recognizer.inputFormat.sampleRate
        let resampler: (any Resampler)? = format.sampleRate == rate
            ? nil
            : try SoxrResampler(inputRate: format.sampleRate, outputRate: rate)
        return TranscriptionPipeline(resampler: resampler, recognizer: recognizer)
    }

    /// Transcribes a whole source as fast as possible and returns its final segments in order.
    /// - Parameter progress: called after each block with seconds of source audio read.
    public static func transcribe(
        _ source: any AudioSource, model: PocketSphinxModel = .englishUS,
        progress: (Double) -> Void = { _ in }
    ) throws -> [TranscriptSegment] {
        try transcribe(source, recognizer: PocketSphinxRecognizer(model: model), progress: progress)
    }

    /// Transcribes a whole source with `recognizer` as fast as possible and returns its final segments in order.
    /// - Parameter progress: called after each block with seconds of source audio read.
    public static func transcribe(
        _ source: any AudioSource, recognizer: any SpeechRecognizer, progress: (Double) -> Void = { _ in }
    ) throws -> [TranscriptSegment] {
        let pipeline = try makePipeline(for: source.format, recognizer: recognizer)
        var assembler = TranscriptAssembler()
        var framesRead = 0
        let block = max(1, source.format.sampleRate / 10)
        while let buffer = try source.read(maxFrames: block) {
            framesRead += buffer.frameCount
            for event in try pipeline.process(buffer) { _ = assembler.apply(event) }
            progress(Double(framesRead) / Double(source.format.sampleRate))
        }
        for event in try pipeline.finish() { _ = assembler.apply(event) }
        return assembler.finals
    }
}

/// `LocalTranscriber` over the Linux pipeline: libsndfile decodes, then `LocalTranscription`.
public struct PocketSphinxFileTranscriber: LocalTranscriber {
    public let model: PocketSphinxModel

    public init(model: PocketSphinxModel = .englishUS) {
        self.model = model
    }

    /// - Throws: `AudioFileError` for a missing or unreadable file, `RecognizerError` for the model.
    public func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment] {
        try LocalTranscription.transcribe(SndFileReader(path: audioFile.path), model: model)
    }
}
