import Foundation
import LiveTranscriberCore

/// A speech recognizer that plays a script instead of listening, standing in for an engine in
/// core tests: each cue fires once the audio received reaches its time (plus `lagSeconds`, for a
/// recognizer whose decoding runs behind the audio, as Whisper's does on another thread).
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

    /// The language as it stands: `initialLanguage`, then the one `identifies` names once its
    /// seconds of audio have arrived (as `--language auto` identifies it).
    public var language: String {
        guard let identifies, receivedSeconds >= identifies.atSeconds else { return initialLanguage }
        return identifies.language
    }
    private let initialLanguage: String
    private let identifies: (atSeconds: Double, language: String)?
    public let inputFormat: RecognizerInputFormat
    public let delivery: RecognitionDelivery
    private var cues: [Cue]
    private let finishEvents: [RecognitionEvent]
    private let failAtSeconds: Double?
    private let lagSeconds: Double
    /// Seconds of audio whose cues have fired (or that lie `lagSeconds` behind the audio received).
    private var transcribedSeconds = 0.0
    /// True once `cancel()` was called.
    public private(set) var cancelled = false
    /// Samples received so far.
    public private(set) var samplesReceived = 0
    /// The size of every block received, in order.
    public private(set) var blockSizes: [Int] = []
    /// True once `finish()` was called.
    public private(set) var finished = false
    /// What `notes` says (`SpeechRecognizer.notes`); none unless a test sets it.
    public var notes: [String] = []

    /// - Parameters:
    ///   - cues: in time order.
    ///   - finishEvents: what `finish()` reports (the utterance in progress becoming final).
    ///   - failAtSeconds: `accept` throws `Failure` once this much audio has arrived.
    ///   - lagSeconds: how far decoding runs behind the audio: a cue fires in `accept` once
    ///     `atSeconds + lagSeconds` of audio arrived; `awaitEvents` fires the next cue whose audio
    ///     arrived (one decode finishing); `finish(stopRequested:abandoning:)` fires the rest of those one by one,
    ///     asking `abandoning` before each.
    ///   - identifies: the language `language` becomes once that many seconds of audio arrived.
    public init(
        language: String = "en-US", identifies: (atSeconds: Double, language: String)? = nil,
        inputFormat: RecognizerInputFormat = RecognizerInputFormat(sampleRate: 16_000, encoding: .int16, blockSamples: 1_600),
        delivery: RecognitionDelivery = .streaming,
        cues: [Cue], finishEvents: [RecognitionEvent] = [], failAtSeconds: Double? = nil, lagSeconds: Double = 0
    ) {
        self.lagSeconds = lagSeconds
        self.initialLanguage = language
        self.identifies = identifies
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
        while let cue = cues.first, cue.atSeconds + lagSeconds <= seconds {
            events += fire()
        }
        transcribedSeconds = max(transcribedSeconds, seconds - lagSeconds)
        return events
    }

    private var receivedSeconds: Double { Double(samplesReceived) / Double(inputFormat.sampleRate) }

    /// The next cue's events; its time is then transcribed.
    private func fire() -> [RecognitionEvent] {
        let cue = cues.removeFirst()
        transcribedSeconds = max(transcribedSeconds, cue.atSeconds)
        return cue.events
    }

    public var untranscribedSamples: Int {
        max(0, samplesReceived - Int((transcribedSeconds * Double(inputFormat.sampleRate)).rounded()))
    }

    public func awaitEvents(upToSeconds seconds: Double) throws -> [RecognitionEvent] {
        guard let cue = cues.first, cue.atSeconds <= receivedSeconds else { return [] }
        return fire()
    }

    public func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding {
        while let cue = cues.first, cue.atSeconds <= receivedSeconds {
            if abandoning() { return RecognitionEnding(events: [], untranscribedFromSeconds: transcribedSeconds) }
            delivering(fire())
        }
        finished = true
        return RecognitionEnding(events: finishEvents)
    }

    public func cancel() {
        cancelled = true
    }
}
