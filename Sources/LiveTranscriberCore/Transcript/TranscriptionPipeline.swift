import Foundation

/// Turns audio in any format into recognition events: downmix to mono, resample to 16 kHz,
/// convert to 16-bit, and feed the recognizer in chunks of about 100 ms.
public final class TranscriptionPipeline {
    /// Samples per chunk fed to the recognizer: 100 ms at 16 kHz.
    public static let chunkSamples = 1_600

    private let recognizer: any SpeechRecognizer
    private let resampler: (any Resampler)?
    private var pending: [Int16] = []
    /// 16 kHz mono samples handed to the recognizer so far.
    public private(set) var samplesRecognized = 0

    /// - Parameters:
    ///   - resampler: converts the source rate to 16 kHz; nil when the source is already 16 kHz.
    ///   - recognizer: receives 16 kHz mono 16-bit samples.
    public init(resampler: (any Resampler)?, recognizer: any SpeechRecognizer) {
        self.resampler = resampler
        self.recognizer = recognizer
    }

    /// Processes one block of source audio (any channel count).
    public func process(_ buffer: AudioBuffer) throws -> [RecognitionEvent] {
        let mono = AudioMath.downmixToMono(buffer)
        let converted = try resampler?.process(mono) ?? mono
        pending += AudioMath.int16Samples(converted)
        var events: [RecognitionEvent] = []
        var offset = 0
        while pending.count - offset >= Self.chunkSamples {
            events += try feed(Array(pending[offset..<offset + Self.chunkSamples]))
            offset += Self.chunkSamples
        }
        pending.removeFirst(offset)
        return events
    }

    /// Flushes the resampler, feeds what is left and ends the last utterance.
    public func finish() throws -> [RecognitionEvent] {
        if let resampler { pending += AudioMath.int16Samples(try resampler.flush()) }
        var events = try feed(pending)
        pending = []
        events += try recognizer.finish()
        return events
    }

    private func feed(_ samples: [Int16]) throws -> [RecognitionEvent] {
        guard !samples.isEmpty else { return [] }
        samplesRecognized += samples.count
        return try recognizer.accept(samples)
    }
}
