import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Synchronization
import Testing

@Suite("Haptic policy")
struct HapticPolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("each product event maps to one feedback kind", arguments: [
        (HapticEvent.navigation, HapticFeedback.selection),
        (.menuSelection, .selection),
        (.transcriptSeek, .selection),
        (.primaryAction, .impact(.light)),
        (.playbackToggled, .impact(.light)),
        (.copied, .impact(.light)),
        (.recordingStarted, .impact(.heavy)),
        (.recordingPaused, .impact(.medium)),
        (.recordingResumed, .impact(.medium)),
        (.recordingStopped, .impact(.rigid)),
        (.deleted, .impact(.rigid)),
        (.recordingDiscarded, .impact(.soft)),
        (.recordingSaved, .notification(.success)),
        (.imported, .notification(.success)),
        (.retranscribed, .notification(.success)),
        (.analyzed, .notification(.success)),
        (.blocked, .notification(.warning)),
        (.warning, .notification(.warning)),
        (.failure, .notification(.error)),
    ])
    func table(event: HapticEvent, feedback: HapticFeedback) {
        #expect(HapticPolicy.feedback(for: event) == feedback)
        var policy = HapticPolicy.standard
        #expect(policy.decide(event, now: t0) == feedback)
    }

    @Test("the table covers every event")
    func everyEvent() {
        #expect(HapticEvent.allCases.count == 19)
        // Start and stop are told apart by feel.
        #expect(HapticPolicy.feedback(for: .recordingStarted) != HapticPolicy.feedback(for: .recordingStopped))
    }

    @Test("the same event again within 0.25 s is not felt; after it, it is")
    func repeatedEvent() {
        var policy = HapticPolicy.standard
        #expect(policy.decide(.transcriptSeek, now: t0) == .selection)
        #expect(policy.decide(.transcriptSeek, now: t0 + 0.1) == nil)
        #expect(policy.decide(.transcriptSeek, now: t0 + 0.2) == nil)
        #expect(policy.decide(.transcriptSeek, now: t0 + 0.25) == .selection)
    }

    @Test("a steady burst is felt once per interval, counted from the last feedback played")
    func burst() {
        var policy = HapticPolicy.standard
        let felt = stride(from: 0.0, to: 1.0, by: 0.05).filter { policy.decide(.transcriptSeek, now: t0 + $0) != nil }
        #expect(felt.count == 4)
    }

    @Test("different events are not limited by each other")
    func differentEvents() {
        var policy = HapticPolicy.standard
        #expect(policy.decide(.recordingStopped, now: t0) == .impact(.rigid))
        #expect(policy.decide(.recordingSaved, now: t0 + 0.01) == .notification(.success))
        #expect(policy.decide(.navigation, now: t0 + 0.02) == .selection)
    }

    @Test("warnings and errors are felt at most once a second, whichever event raised them")
    func alerts() {
        var policy = HapticPolicy.standard
        #expect(policy.decide(.failure, now: t0) == .notification(.error))
        #expect(policy.decide(.blocked, now: t0 + 0.5) == nil)
        #expect(policy.decide(.failure, now: t0 + 0.9) == nil)
        #expect(policy.decide(.warning, now: t0 + 1.0) == .notification(.warning))
        // A success is not an alert and is not held back by one.
        #expect(policy.decide(.recordingSaved, now: t0 + 1.1) == .notification(.success))
    }

    @Test("a clock that went backwards counts as no time passed")
    func clockBackwards() {
        var policy = HapticPolicy.standard
        #expect(policy.decide(.copied, now: t0) == .impact(.light))
        #expect(policy.decide(.copied, now: t0 - 10) == nil)
    }

    @Test("nothing is felt when haptics are off, and nothing is remembered")
    func disabled() {
        var policy = HapticPolicy.standard
        policy.isEnabled = false
        #expect(policy.decide(.recordingStarted, now: t0) == nil)
        policy.isEnabled = true
        #expect(policy.decide(.recordingStarted, now: t0 + 0.01) == .impact(.heavy))
    }

    @Test("the coordinator plays what the policy decides, with time from the injected clock")
    func coordinator() {
        let clock = ManualClock(start: t0)
        let player = RecordingHapticPlayer()
        let haptics = HapticCoordinator(clock: clock, player: player)
        haptics.occurred(.recordingStarted)
        haptics.occurred(.transcriptSeek)
        haptics.occurred(.transcriptSeek)
        clock.advance(by: 0.3)
        haptics.occurred(.transcriptSeek)
        haptics.isEnabled = false
        haptics.occurred(.recordingSaved)
        #expect(player.played == [.impact(.heavy), .selection, .selection])
    }
}

/// Records what would have been played: the fake at the UIKit boundary.
final class RecordingHapticPlayer: HapticPlayer {
    private let log = Mutex<[HapticFeedback]>([])
    var played: [HapticFeedback] { log.withLock { $0 } }
    func play(_ feedback: HapticFeedback) { log.withLock { $0.append(feedback) } }
}
