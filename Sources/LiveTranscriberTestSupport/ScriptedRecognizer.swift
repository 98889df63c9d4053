import Foundation
import LiveTranscriberCore

/// A speech recognizer that plays a script instead of listening, standing in for an engine in
/// core tests: each cue fires once the audio received reaches its time.
public final class ScriptedRecognizer: SpeechRecognizer, @unchecked Sendable {
    /// Events to report once `atSeconds` of audio (at the recognizer's rate) have been received.
    public struct Cue: Sendable, Equatable {
        public var atSeconds: Double
        public var events: [RecognitionEvent]

        public init(atSeconds: Double, _ events: [RecognitionEvent]) {
            self.atSeconds = atSeconds
            self.events = events
        }
    }

    /// The error `accept` throws once `failAtSeconds` of audio have been received.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String { "the scripted recognizer failed" }
    }

    public let language: String
    public let inputFormat: RecognizerInputFormat
    public let delivery: RecognitionDelivery
    private var cues: [Cue]
    private let finishEvents: [RecognitionEvent]
    private let failAtSeconds: Double?
    /// Samples received so far.
    public private(set) var samplesReceived = 0
    /// The size of every block received, in order.
    public private(set) var blockSizes: [Int] = []
    /// True once `finish()` was called.
    public private(set) var finished = false

    /// - Parameters:
    ///   - cues: in time order.
    ///   - finishEvents: what `finish()` reports (the utterance in progress becoming final).
    ///   - failAtSeconds: `accept` throws `Failure` once this much audio has arrived.
    public init(
        language: String = "en-US",
        inputFormat: RecognizerInputFormat = RecognizerInputFormat(sampleRate: 16_000, encoding: .int16, blockSamples: 1_600),
        delivery: RecognitionDelivery = .streaming,
        cues: [Cue], finishEvents: [RecognitionEvent] = [], failAtSeconds: Double? = nil
    ) {
        self.language = language
        self.inputFormat = inputFormat
        self.delivery = delivery
        self.cues = cues
        self.finishEvents = finishEvents
        self.failAtSeconds = failAtSeconds
    }

    public func accept(_ samples: RecognizerSamples) throws -> [RecognitionEvent] {
        samplesReceived += samples.count
        blockSizes.append(samples.count)
        let seconds = Double(samplesReceived) / Double(inputFormat.sampleRate)
        if let failAtSeconds, seconds >= failAtSeconds { throw Failure() }
        var events: [RecognitionEvent] = []
        while let cue = cues.first, cue.atSeconds <= seconds {
            events += cue.events
            cues.removeFirst()
        }
        return events
    }

    public func finish() throws -> [RecognitionEvent] {
        finished = true
        return finishEvents
    }
}
