import Foundation

extension RecordingActivityAttributes {
    /// The part of the Live Activity that changes: sent with every request, update and end.
    ///
    /// Apple: the encoded content state (with the attributes) must not exceed 4 KB; the core keeps
    /// it within `ActivityPayloadBudget.byteLimit` bytes of JSON. Keys are stable: `status`,
    /// `timerReferenceDate`, `elapsedSeconds`, `transcript`, `language`, `segmentCount`.
    public struct ContentState: Sendable, Equatable, Hashable, Codable {
        /// Where the recording is.
        public enum Status: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
            case recording
            case paused
            case stopped
        }

        /// Recording, paused or stopped.
        public var status: Status
        /// The instant a system-ticked timer counts from: now minus elapsed, pauses excluded.
        /// Only drives the clock while `status == .recording`.
        public var timerReferenceDate: Date
        /// The fixed elapsed time in seconds (pauses excluded) shown when not recording; nil while
        /// recording, when the system ticks the timer from `timerReferenceDate`. A number, so
        /// every presentation formats it its own way (the compact island as "1h05").
        public var elapsedSeconds: Double?
        /// The newest final transcript lines, joined with "\n", at most 700 characters
        /// (grapheme clusters); a cut is marked with a leading "…".
        public var transcript: String
        /// The recognition language, as a BCP 47 tag ("en-US").
        public var language: String
        /// How many final segments the recording has so far.
        public var segmentCount: Int

        public init(
            status: Status, timerReferenceDate: Date, elapsedSeconds: Double?, transcript: String,
            language: String, segmentCount: Int
        ) {
            self.status = status
            self.timerReferenceDate = timerReferenceDate
            self.elapsedSeconds = elapsedSeconds
            self.transcript = transcript
            self.language = language
            self.segmentCount = segmentCount
        }

        enum CodingKeys: String, CodingKey {
            case status
            case timerReferenceDate
            case elapsedSeconds
            case transcript
            case language
            case segmentCount
        }

        /// The fixed elapsed time as a clock ("1:30"), nil while recording.
        public var elapsedText: String? { elapsedSeconds.map(ElapsedTimeFormat.clock) }

        /// The text a clock shows for this state at `now`: the fixed text when not recording,
        /// else the time since `timerReferenceDate` (0:00 if that date is in the future).
        public func elapsedClockText(at now: Date) -> String {
            if status != .recording, let elapsedText { return elapsedText }
            return ElapsedTimeFormat.clock(ElapsedTimeFormat.elapsed(since: timerReferenceDate, now: now))
        }
    }
}
