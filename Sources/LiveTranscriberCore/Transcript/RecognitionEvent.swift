import Foundation

/// What a speech recognizer reports as audio flows in.
public enum RecognitionEvent: Sendable, Equatable {
    /// Interim (volatile) text of the utterance in progress; the next interim or final replaces it.
    case interim(String)
    /// A final segment, reported once at the end of an utterance (endpointing).
    case final(TranscriptSegment)
}

/// How samples are encoded when they reach a recognizer.
public enum SampleEncoding: String, Sendable, Equatable, CaseIterable {
    /// Signed 16-bit integers (pocketsphinx).
    case int16
    /// 32-bit floats in [-1, 1] (whisper.cpp, Apple's SpeechAnalyzer).
    case float32
}

/// A block of mono samples in the encoding a recognizer asked for.
public enum RecognizerSamples: Sendable, Equatable {
    case int16([Int16])
    case float32([Float])

    /// Samples in the block.
    public var count: Int {
        switch self {
        case .int16(let samples): samples.count
        case .float32(let samples): samples.count
        }
    }

    /// The samples as floats in [-1, 1], whatever their encoding.
    public var floats: [Float] {
        switch self {
        case .int16(let samples): AudioMath.floatSamples(samples)
        case .float32(let samples): samples
        }
    }

    /// The samples as signed 16-bit integers, whatever their encoding.
    public var int16s: [Int16] {
        switch self {
        case .int16(let samples): samples
        case .float32(let samples): AudioMath.int16Samples(samples)
        }
    }
}

/// The mono audio a recognizer wants: its rate, its sample encoding and how much at a time.
public struct RecognizerInputFormat: Sendable, Equatable {
    /// Frames per second (Hz) of the mono stream the recognizer expects.
    public var sampleRate: Int
    /// The encoding of each sample.
    public var encoding: SampleEncoding
    /// Samples per block handed to `accept(_:)`; the last block before `finish()` may be shorter.
    public var blockSamples: Int

    public init(sampleRate: Int, encoding: SampleEncoding, blockSamples: Int) {
        precondition(sampleRate > 0 && blockSamples > 0, "a recognizer wants a positive rate and block size")
        self.sampleRate = sampleRate
        self.encoding = encoding
        self.blockSamples = blockSamples
    }
}

/// How a recognizer delivers its results, so front ends can say what to expect.
public enum RecognitionDelivery: Sendable, Equatable {
    /// Interim text while an utterance is spoken, a final at each end of utterance (pocketsphinx, SpeechAnalyzer).
    case streaming
    /// Finals only, each after a window of audio of up to `maxWindowSeconds` seconds.
    case windowed(maxWindowSeconds: Double)
    /// Finals cut at utterance ends, with interim text from repeated decodes of the open utterance
    /// (whisper.cpp with voice activity detection); finals arrive after each utterance ends.
    case utterances
}

/// A speech recognizer: mono samples at the rate and encoding it states in, recognition events out.
///
/// Implemented on Linux by `PocketSphinxRecognizer` and `WhisperRecognizer`; on iOS by Apple's
/// SpeechAnalyzer. `TranscriptionPipeline` downmixes, resamples and encodes audio for it.
public protocol SpeechRecognizer: AnyObject {
    /// The recognizer's language, a BCP 47 tag such as "en-US".
    var language: String { get }
    /// The mono audio it wants.
    var inputFormat: RecognizerInputFormat { get }
    /// How results come out.
    var delivery: RecognitionDelivery { get }
    /// Feeds samples (mono, `inputFormat`) and returns the events they produced, in order.
    /// Times in events are seconds from the start of the stream.
    func accept(_ samples: RecognizerSamples) throws -> [RecognitionEvent]

    /// Samples accepted whose recognition is not done yet: audio waiting for a decode, being
    /// decoded, or in an utterance not yet cut (at `inputFormat.sampleRate`). 0 for a recognizer
    /// that decodes what it accepts before `accept(_:)` returns (the default).
    var untranscribedSamples: Int { get }

    /// The events of decodes that finished since the last call, after waiting up to `seconds`
    /// (wall time) for the decode in flight, if any, to finish. Returns at once with none for a
    /// recognizer that decodes as it accepts (the default).
    /// - Throws: the decode's error, as `accept(_:)` would.
    func awaitEvents(upToSeconds seconds: Double) throws -> [RecognitionEvent]

    /// Ends the stream: the utterance in progress, if any, becomes final. The one way a stream
    /// ends (`finish()` and `finish(stopRequested:abandoning:)` are shorthands for it).
    ///
    /// While decodes are pending, `abandoning` is asked between waits of at most 0.1 s; once it
    /// returns true, the decode in flight is cancelled and joined (it has returned when this does)
    /// and the utterances still waiting are dropped. The events of each decode go to `delivering`
    /// as it ends (before `abandoning` is asked next), so a front end shows the last lines as they
    /// come; a recognizer that finishes at once may deliver nothing and return every event in the ending.
    /// - Parameter stopRequested: the user asked to stop (rather than the input ending): work
    ///   that only refines what is already decoded may be skipped (pocketsphinx's second pass).
    /// - Returns: the events not delivered, and where the audio without a transcript begins when
    ///   work was abandoned.
    func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding

    /// Ends the stream without finishing it, after a failure: pending decodes are cancelled, and the
    /// one in flight has returned when this does. Nothing more is reported. The default does nothing.
    func cancel()

    /// Notes on how the transcript so far was made, one sentence each, for the recording's notes
    /// (`Recording.notes`): a segment dropped as an invented phrase (`InventedPhrases.note`). By
    /// default none.
    var notes: [String] { get }
}

extension SpeechRecognizer {
    public var untranscribedSamples: Int { 0 }
    public func awaitEvents(upToSeconds seconds: Double) throws -> [RecognitionEvent] { [] }
    public func cancel() {}
    public var notes: [String] { [] }

    /// Ends the stream waiting for every decode; every event, in order.
    public func finish() throws -> [RecognitionEvent] {
        try finish(stopRequested: false, abandoning: { false }).events
    }

    /// Ends the stream as `finish(stopRequested:abandoning:delivering:)` does, every event in the ending.
    public func finish(stopRequested: Bool, abandoning: () -> Bool) throws -> RecognitionEnding {
        try RecognitionEnding.collecting { try finish(stopRequested: stopRequested, abandoning: abandoning, delivering: $0) }
    }
}

/// How a recognizer's stream ended (`SpeechRecognizer.finish(stopRequested:abandoning:)`).
public struct RecognitionEnding: Sendable, Equatable {
    /// The events produced while finishing, in order.
    public var events: [RecognitionEvent]
    /// Seconds from the start of the stream from which the audio has no transcript, because the
    /// decodes it waited for were abandoned; nil when every utterance was transcribed.
    public var untranscribedFromSeconds: Double?

    public init(events: [RecognitionEvent], untranscribedFromSeconds: Double? = nil) {
        self.events = events
        self.untranscribedFromSeconds = untranscribedFromSeconds
    }

    /// The ending of `finishing` (a finish that delivers events as they come) with the delivered
    /// events put before the ending's own, in order.
    public static func collecting(_ finishing: (([RecognitionEvent]) -> Void) throws -> RecognitionEnding) rethrows -> RecognitionEnding {
        var delivered: [RecognitionEvent] = []
        var ending = try finishing { delivered += $0 }
        ending.events = delivered + ending.events
        return ending
    }
}
