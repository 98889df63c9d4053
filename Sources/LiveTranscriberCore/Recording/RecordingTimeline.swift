import Foundation
import Synchronization

/// The recording's own clock: the start date plus seconds of audio recorded plus seconds spent
/// paused.
///
/// Live capture advances it at wall-clock speed; a file read faster than real time advances it
/// as fast as audio arrives, so the Live Activity's timer reference and timestamps follow the
/// recording, not the machine. It never goes back.
public final class RecordingTimeline: WallClock {
    /// When the recording started.
    public let start: Date
    private let offset = Mutex<Double>(0)

    public init(start: Date) {
        self.start = start
    }

    public func now() -> Date { start.addingTimeInterval(offset.withLock { $0 }) }

    /// Seconds since the start, pauses included.
    public var seconds: Double { offset.withLock { $0 } }

    /// Moves the clock to `seconds` after the start; an earlier value changes nothing.
    public func advance(to seconds: Double) {
        offset.withLock { $0 = max($0, seconds) }
    }
}
