import Foundation

/// The one place the core learns the time: injected, never read directly.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
