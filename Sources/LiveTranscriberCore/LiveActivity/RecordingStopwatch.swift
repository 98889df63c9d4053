import Foundation

/// Elapsed recording time with pauses excluded, as a pure value driven by the instants it is given.
///
/// The timer reference date is the instant the system timer counts from: `now - elapsed`. While
/// running it does not move (it is `runningSince - accumulated`), so any number of updates in
/// between send the same date and the Lock Screen clock never restarts.
///
/// ```swift
/// var watch = RecordingStopwatch()
/// watch.start(at: t0)
/// watch.pause(at: t0 + 90)      // 1:30 recorded
/// watch.resume(at: t0 + 120)    // 30 s paused, not counted
/// watch.elapsed(at: t0 + 210)   // 180, "3:00"
/// ```
public struct RecordingStopwatch: Sendable, Equatable, Hashable {
    /// Seconds recorded before the current run.
    public private(set) var accumulatedSeconds: Double = 0
    /// When the current run began; nil while paused, stopped or not started.
    public private(set) var runningSince: Date?
    /// The reference date of the last run, kept while paused or stopped so that repeated
    /// snapshots of a paused recording are equal.
    private var frozenReferenceDate: Date?

    public init() {}

    /// True between `start`/`resume` and `pause`/`stop`.
    public var isRunning: Bool { runningSince != nil }

    /// Starts counting at `now`. Starting a running stopwatch does nothing.
    public mutating func start(at now: Date) {
        if runningSince == nil { runningSince = now }
    }

    /// Stops counting at `now`, keeping what was recorded.
    public mutating func pause(at now: Date) {
        guard isRunning else { return }
        frozenReferenceDate = timerReferenceDate(at: now)
        accumulatedSeconds = elapsed(at: now)
        runningSince = nil
    }

    /// Counts again from `now`.
    public mutating func resume(at now: Date) { start(at: now) }

    /// Stops counting at `now`, for good; same as `pause`.
    public mutating func stop(at now: Date) { pause(at: now) }

    /// Seconds recorded up to `now`, pauses excluded; never negative, even if the clock went back.
    public func elapsed(at now: Date) -> Double {
        let base = accumulatedSeconds.isFinite ? max(0, accumulatedSeconds) : 0
        guard let runningSince else { return base }
        return base + ElapsedTimeFormat.elapsed(since: runningSince, now: now)
    }

    /// The date a system-ticked timer counts from so that it reads `elapsed(at: now)` at `now`.
    ///
    /// While running this is `runningSince - accumulated`, independent of `now`. While paused
    /// or stopped it stays what it was when the run ended (the fixed elapsed text is what shows
    /// then), so it does not drift with `now` and cause needless updates.
    public func timerReferenceDate(at now: Date) -> Date {
        if let runningSince, now >= runningSince {
            return runningSince.addingTimeInterval(-accumulatedSeconds)
        }
        if runningSince == nil, let frozenReferenceDate { return frozenReferenceDate }
        return now.addingTimeInterval(-elapsed(at: now))
    }
}
