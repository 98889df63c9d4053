import Foundation

/// What a presentation's clock shows.
public enum TimerDisplay: Sendable, Equatable, Hashable {
    /// A clock the system ticks, counting up from this reference date
    /// (SwiftUI: `Text(date, style: .timer)`). Used only while recording.
    case ticking(from: Date)
    /// Fixed text ("1:30"), while paused or stopped.
    case fixed(String)

    /// The clock for a content state: ticking while recording, else its fixed elapsed text.
    public init(_ content: RecordingActivityAttributes.ContentState) {
        if content.status == .recording {
            self = .ticking(from: content.timerReferenceDate)
        } else {
            self = .fixed(content.elapsedText ?? ElapsedTimeFormat.clock(0))
        }
    }

    /// The text a ticking clock shows after `elapsedSeconds`, or the fixed text; for surfaces
    /// that cannot tick themselves (terminal, SVG).
    public func text(elapsedSeconds: Double) -> String {
        switch self {
        case .ticking: ElapsedTimeFormat.clock(elapsedSeconds)
        case .fixed(let text): text
        }
    }

    /// The text the clock shows at `now`; a reference date in the future reads "0:00".
    public func text(at now: Date) -> String {
        switch self {
        case .ticking(let reference): ElapsedTimeFormat.clock(ElapsedTimeFormat.elapsed(since: reference, now: now))
        case .fixed(let text): text
        }
    }
}
