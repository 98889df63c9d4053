import Foundation
import LiveTranscriberCore
import Synchronization

/// A clock that moves only when a test tells it to.
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    /// Starts at `start`, by default 2023-11-14 22:13:20 UTC.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, for clock-skew tests) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
