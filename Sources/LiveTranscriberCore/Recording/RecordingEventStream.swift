import Foundation

/// One line of a recording's live event stream (`record --events`, docs/live-events.md): what a
/// second front end or a latency measurement needs to follow a recording as it happens.
///
/// Every event has `type`, `elapsed` (wall seconds since the recording's start) and `audio_start` /
/// `audio_end` (seconds of recorded audio, pauses excluded, that it covers). Keys are snake_case;
/// numbers are rounded to milliseconds.
public struct RecordingStreamEvent: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        /// The session moved to `phase` (`RecordingSession.Phase`'s raw value); covers the audio so far.
        case phase
        /// The interim line is now `text` (empty: cleared); covers the audio after the last final up to now.
        case interim
        /// A final segment: `text` and `words`, covering its own times.
        case final
    }

    /// One word of a final, seconds from the start of the recording.
    public struct Word: Sendable, Equatable, Codable {
        public var word: String
        public var start: Double
        public var end: Double
    }

    public var type: Kind
    /// Wall-clock seconds since the recording started.
    public var elapsed: Double
    /// Seconds of audio from the start of the recording where the covered audio begins.
    public var audioStart: Double
    /// Seconds of audio from the start of the recording where the covered audio ends.
    public var audioEnd: Double
    /// `phase` events: the new phase.
    public var phase: String?
    /// `interim` and `final` events: the text.
    public var text: String?
    /// `final` events: its words with times.
    public var words: [Word]?

    public init(type: Kind, elapsed: Double, audioStart: Double, audioEnd: Double,
                phase: String? = nil, text: String? = nil, words: [Word]? = nil) {
        self.type = type
        self.elapsed = elapsed
        self.audioStart = audioStart
        self.audioEnd = audioEnd
        self.phase = phase
        self.text = text
        self.words = words
    }

    enum CodingKeys: String, CodingKey {
        case type, elapsed, phase, text, words
        case audioStart = "audio_start"
        case audioEnd = "audio_end"
    }
}

/// Turns a `RecordingEngine`'s events into the live event stream, one JSON line each.
///
/// ```swift
/// var stream = RecordingEventStream()
/// let engine = RecordingEngine(...) { event in
///     if let line = stream.line(for: event, elapsedSeconds: clock.now().timeIntervalSince(start)) { write(line + "\n") }
/// }
/// ```
public struct RecordingEventStream: Sendable {
    /// Seconds of audio recorded so far, from the engine's `audioReceived` events.
    public private(set) var audioSeconds: Double = 0
    /// Where the audio after the last final starts (the end of the last final segment).
    private var lastFinalEnd: Double = 0

    public init() {}

    /// The stream event for `event`, nil for one the stream leaves out (`audioReceived`, which only
    /// moves `audioSeconds`).
    /// - Parameter elapsedSeconds: wall-clock seconds since the recording started.
    public mutating func event(for event: RecordingEngineEvent, elapsedSeconds: Double) -> RecordingStreamEvent? {
        let elapsed = Self.rounded(elapsedSeconds)
        let now = Self.rounded(audioSeconds)
        switch event {
        case .audioReceived(let seconds, _):
            audioSeconds = seconds
            return nil
        case .phaseChanged(let phase):
            return RecordingStreamEvent(type: .phase, elapsed: elapsed, audioStart: now, audioEnd: now, phase: phase.rawValue)
        case .interimChanged(let text):
            return RecordingStreamEvent(type: .interim, elapsed: elapsed, audioStart: Self.rounded(min(lastFinalEnd, audioSeconds)),
                                        audioEnd: now, text: text ?? "")
        case .finalAdded(let segment):
            lastFinalEnd = max(lastFinalEnd, segment.endSeconds)
            let words = segment.words.map { RecordingStreamEvent.Word(word: $0.word, start: Self.rounded($0.startSeconds), end: Self.rounded($0.endSeconds)) }
            return RecordingStreamEvent(type: .final, elapsed: elapsed, audioStart: Self.rounded(segment.startSeconds),
                                        audioEnd: Self.rounded(segment.endSeconds), text: segment.text, words: words)
        }
    }

    /// `event(for:elapsedSeconds:)` as one line of JSON (no newline), nil when it is left out.
    public mutating func line(for event: RecordingEngineEvent, elapsedSeconds: Double) -> String? {
        guard let streamEvent = self.event(for: event, elapsedSeconds: elapsedSeconds) else { return nil }
        return try? JSONText.line(streamEvent)  // every number is finite: rounded from finite seconds
    }

    /// Whole milliseconds (`TranscriptTime.rounded`, the transcript's own precision); 0 for NaN and infinities.
    static func rounded(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return 0 }
        return TranscriptTime.rounded(seconds)
    }
}

extension RecordingStreamEvent.Word {
    public init(_ word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}
