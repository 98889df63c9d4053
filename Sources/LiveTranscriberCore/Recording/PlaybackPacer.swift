import Foundation

/// Paces a file played into a recording as if it were live: the next block is due when the
/// monotonic clock catches up with the audio already read, at `speed` seconds of audio per
/// second. Pauses are left out of the pacing however long they last, so nothing is rushed
/// after a resume.
public struct PlaybackPacer: Sendable, Equatable {
    /// Seconds of audio per second of wall time; nil reads as fast as the machine allows.
    public let speed: Double?
    /// Frames per second of the source.
    public let sampleRate: Int
    private let start: ContinuousClock.Instant
    private var pausedFor: Duration = .zero
    private var pausedSince: ContinuousClock.Instant?

    /// - Parameters:
    ///   - speed: 1 for real time, 2 for twice as fast; nil for no pacing (live input, `--speed max`).
    ///   - start: when the first block was read.
    public init(speed: Double?, sampleRate: Int, start: ContinuousClock.Instant) {
        self.speed = speed
        self.sampleRate = sampleRate
        self.start = start
    }

    /// Records a pause starting (`true`) or ending (`false`) at `now`.
    public mutating func paused(_ isPaused: Bool, at now: ContinuousClock.Instant) {
        if isPaused {
            if pausedSince == nil { pausedSince = now }
        } else if let since = pausedSince {
            pausedFor += now - since
            pausedSince = nil
        }
    }

    /// Seconds to wait before reading the next block, or nil when it is due now.
    /// - Parameter framesRecorded: frames of the source read so far, pauses excluded.
    public func wait(framesRecorded: Int, now: ContinuousClock.Instant) -> Double? {
        guard let speed, pausedSince == nil else { return nil }
        let due = start + pausedFor + .seconds(Double(framesRecorded) / Double(sampleRate) / speed)
        let wait = due - now
        guard wait > .zero else { return nil }
        return Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    }
}
