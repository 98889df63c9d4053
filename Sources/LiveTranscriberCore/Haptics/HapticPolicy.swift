import Foundation

/// Decides which product events are felt, and how: one feedback per event, repeated events
/// rate-limited so a burst (scrubbing through a transcript, a failure reported again and again)
/// is felt as a steady pulse rather than a buzz.
///
/// A pure value: `decide(_:now:)` takes the time, so tests need no clock. `HapticCoordinator`
/// drives it with an injected clock.
///
/// ```swift
/// var policy = HapticPolicy.standard
/// policy.decide(.recordingStarted, now: t0)          // .impact(.heavy)
/// policy.decide(.transcriptSeek, now: t0)            // .selection
/// policy.decide(.transcriptSeek, now: t0 + 0.05)     // nil: the same event again too soon
/// ```
public struct HapticPolicy: Sendable, Equatable {
    /// Whether anything is felt at all (the Settings switch).
    public var isEnabled: Bool
    /// The shortest time, in seconds, between two feedbacks for the same event.
    public var repeatInterval: TimeInterval
    /// The shortest time, in seconds, between two warning or error feedbacks of any event:
    /// repeated failures are reported on screen, felt once.
    public var alertInterval: TimeInterval

    /// When each event was last felt; measured from the last feedback played, so a steady burst
    /// is still felt once per interval.
    private var lastPlayed: [HapticEvent: Date] = [:]
    /// When a warning or error feedback was last played.
    private var lastAlert: Date?

    /// Enabled; the same event at most every 0.25 s; warnings and errors at most once a second.
    public static let standard = HapticPolicy(isEnabled: true, repeatInterval: 0.25, alertInterval: 1.0)

    public init(isEnabled: Bool, repeatInterval: TimeInterval, alertInterval: TimeInterval) {
        self.isEnabled = isEnabled
        self.repeatInterval = max(0, repeatInterval)
        self.alertInterval = max(0, alertInterval)
    }

    /// The feedback for `event` regardless of timing: the product's table.
    ///
    /// Starting is the heaviest beat and stopping a firm one, so the two are told apart without
    /// looking; outcomes of tasks (save, import, summary) use the system's success, warning and
    /// error patterns; moving around is a selection tick.
    public static func feedback(for event: HapticEvent) -> HapticFeedback {
        switch event {
        case .navigation, .menuSelection, .transcriptSeek: .selection
        case .primaryAction, .playbackToggled, .copied: .impact(.light)
        case .recordingStarted: .impact(.heavy)
        case .recordingPaused, .recordingResumed: .impact(.medium)
        case .recordingStopped, .deleted: .impact(.rigid)
        case .recordingDiscarded: .impact(.soft)
        case .recordingSaved, .imported, .retranscribed, .analyzed: .notification(.success)
        case .blocked, .warning: .notification(.warning)
        case .failure: .notification(.error)
        }
    }

    /// Whether `event` is felt at `now`, and how; records it as played when it is.
    /// - Returns: the feedback to play, or nil when haptics are off or the event (or, for a
    ///   warning or error, any alert) was felt too recently. A clock that went backwards counts as
    ///   no time passed.
    public mutating func decide(_ event: HapticEvent, now: Date) -> HapticFeedback? {
        guard isEnabled else { return nil }
        let feedback = Self.feedback(for: event)
        if let last = lastPlayed[event], now.timeIntervalSince(last) < repeatInterval { return nil }
        let isAlert = feedback == .notification(.warning) || feedback == .notification(.error)
        if isAlert, let lastAlert, now.timeIntervalSince(lastAlert) < alertInterval { return nil }
        lastPlayed[event] = now
        if isAlert { lastAlert = now }
        return feedback
    }
}
