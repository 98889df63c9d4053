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

    /// The recognizer's notes on the transcript so far (`SpeechRecognizer.notes`).
    public var notes: [String] { recognizer.notes }

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

    /// Mono samples at the recognizer's rate (`recognizerSampleRate`) whose transcript is done:
    /// those handed over minus the recognizer's `untranscribedSamples`.
    public var samplesTranscribed: Int { max(0, samplesRecognized - recognizer.untranscribedSamples) }

    /// The recognizer's rate, Hz: the unit of `samplesRecognized` and `samplesTranscribed`.
    public var recognizerSampleRate: Int { input.sampleRate }

    /// The events of decodes finished since the last call, waiting up to `seconds` (wall time) for
    /// the one in flight (`SpeechRecognizer.awaitEvents(upToSeconds:)`). Throws the recognizer's error.
    public func awaitEvents(upToSeconds seconds: Double) throws -> [RecognitionEvent] {
        try recognizer.awaitEvents(upToSeconds: seconds)
    }

    /// Ends recognition with nothing more fed: pending decodes are cancelled and joined
    /// (`SpeechRecognizer.cancel()`). For a capture that failed.
    public func cancel() {
        recognizer.cancel()
        pending = []
    }

    /// Flushes the resampler, feeds what is left and ends the last utterance, waiting for every decode.
    public func finish() throws -> [RecognitionEvent] {
        try finish(stopRequested: false, abandoning: { false }).events
    }

    /// Flushes the resampler, feeds what is left and ends the last utterance; pending decodes are
    /// abandoned once `abandoning` returns true (`SpeechRecognizer.finish(stopRequested:abandoning:)`).
    /// - Returns: the events, and where the audio without a transcript begins (seconds from the start).
    public func finish(stopRequested: Bool, abandoning: () -> Bool) throws -> RecognitionEnding {
        try RecognitionEnding.collecting { try finish(stopRequested: stopRequested, abandoning: abandoning, delivering: $0) }
    }

    /// `finish(stopRequested:abandoning:)`, handing each decode's events to `delivering` as it
    /// ends (`SpeechRecognizer.finish(stopRequested:abandoning:delivering:)`); the ending holds the rest.
    public func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding {
        if let resampler { pending += try resampler.flush() }
        let events = try feed(pending[...])
        pending = []
        if !events.isEmpty { delivering(events) }
        return try recognizer.finish(stopRequested: stopRequested, abandoning: abandoning, delivering: delivering)
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
