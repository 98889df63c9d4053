import Foundation

/// Turns audio in any format into recognition events: downmix to mono, resample to the
/// recognizer's rate, encode as it asks, and feed it blocks of the size it asks for.
public final class TranscriptionPipeline {
    private let recognizer: any SpeechRecognizer
    private let resampler: (any Resampler)?
    private let input: RecognizerInputFormat
    /// Resampled mono samples not yet handed to the recognizer (less than one block).
    private var pending: [Float] = []
    /// Mono samples at the recognizer's rate handed to it so far.
    public private(set) var samplesRecognized = 0

    /// - Parameters:
    ///   - resampler: converts the source rate to `recognizer.inputFormat.sampleRate`; nil when
    ///     the source already has that rate.
    ///   - recognizer: receives mono samples in its `inputFormat`.
    public init(resampler: (any Resampler)?, recognizer: any SpeechRecognizer) {
        self.resampler = resampler
        self.recognizer = recognizer
        self.input = recognizer.inputFormat
    }

    /// The recognizer's language, a BCP 47 tag.
    public var language: String { recognizer.language }

    /// Processes one block of source audio (any channel count).
    public func process(_ buffer: AudioBuffer) throws -> [RecognitionEvent] {
        let mono = AudioMath.downmixToMono(buffer)
        pending += try resampler?.process(mono) ?? mono
        var events: [RecognitionEvent] = []
        var offset = 0
        while pending.count - offset >= input.blockSamples {
            events += try feed(pending[offset..<offset + input.blockSamples])
            offset += input.blockSamples
        }
        pending.removeFirst(offset)
        return events
    }

    /// Flushes the resampler, feeds what is left and ends the last utterance.
    public func finish() throws -> [RecognitionEvent] {
        if let resampler { pending += try resampler.flush() }
        var events = try feed(pending[...])
        pending = []
        events += try recognizer.finish()
        return events
    }

    private func feed(_ samples: ArraySlice<Float>) throws -> [RecognitionEvent] {
        guard !samples.isEmpty else { return [] }
        samplesRecognized += samples.count
        switch input.encoding {
        case .float32: return try recognizer.accept(.float32(Array(samples)))
        case .int16: return try recognizer.accept(.int16(AudioMath.int16Samples(Array(samples))))
        }
    }
}
