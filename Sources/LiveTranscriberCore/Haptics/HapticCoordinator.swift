import Foundation
import Synchronization

/// Plays feedbacks: UIKit's generators on iOS, a recorder in tests.
public protocol HapticPlayer: Sendable {
    /// Plays one feedback now.
    func play(_ feedback: HapticFeedback)
}

/// The one owner of haptics in a front end: asks a `HapticPolicy` with the time from an injected
/// clock and plays what it decides. Safe to call from any thread.
///
/// ```swift
/// let haptics = HapticCoordinator(clock: SystemClock(), player: UIKitHapticPlayer())
/// haptics.occurred(.recordingSaved)
/// ```
public final class HapticCoordinator: Sendable {
    private let clock: any WallClock
    private let player: any HapticPlayer
    private let policy: Mutex<HapticPolicy>

    public init(clock: any WallClock, player: any HapticPlayer, policy: HapticPolicy = .standard) {
        self.clock = clock
        self.player = player
        self.policy = Mutex(policy)
    }

    /// Turns haptics on or off (the Settings switch); rate limits are kept.
    public var isEnabled: Bool {
        get { policy.withLock { $0.isEnabled } }
        set { policy.withLock { $0.isEnabled = newValue } }
    }

    /// Reports `event`; plays its feedback unless the policy suppresses it.
    /// - Returns: what was played, or nil.
    @discardableResult
    public func occurred(_ event: HapticEvent) -> HapticFeedback? {
        let feedback = policy.withLock { $0.decide(event, now: clock.now()) }
        if let feedback { player.play(feedback) }
        return feedback
    }
}
