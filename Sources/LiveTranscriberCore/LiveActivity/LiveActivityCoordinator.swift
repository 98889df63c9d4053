import Foundation
import Synchronization

/// The one owner of the recording's Live Activity: feeds recording events to a
/// `LiveActivityUpdatePolicy` with the time from an injected clock, and performs the actions it
/// returns on an `ActivityClient`, in order.
///
/// Safe to call from any thread: events are serialized, and each event's client calls finish
/// before the next event starts, so an older update is never sent after a newer one.
///
/// ```swift
/// let coordinator = LiveActivityCoordinator(
///     attributes: RecordingActivityAttributes(recordingID: id, name: name, startDate: clock.now()),
///     language: "en-US", clock: SystemClock(), client: activityKitClient)  // or the terminal's JSONLinesActivityClient
/// coordinator.recordingStarted()
/// coordinator.finalSegmentsChanged(assembler.finals)   // after each new final segment
/// coordinator.stopped()
/// coordinator.end(dismissal: .default)
/// ```
public final class LiveActivityCoordinator: Sendable {
    private struct Inner: Sendable {
        var policy: LiveActivityUpdatePolicy
        var lastError: String?
    }

    private let attributes: RecordingActivityAttributes
    private let language: String
    private let clock: any WallClock
    private let client: any ActivityClient
    private let inner: Mutex<Inner>

    /// - Parameters:
    ///   - attributes: fixed for the activity's life.
    ///   - language: BCP 47 tag of the recognition language ("en-US").
    ///   - clock: the only source of time; a `ManualClock` in tests.
    ///   - client: where the activity is shown.
    ///   - policy: the rules and numbers; `.standard` unless a test needs others.
    public init(
        attributes: RecordingActivityAttributes, language: String, clock: any WallClock,
        client: any ActivityClient, policy: LiveActivityUpdatePolicy = .standard
    ) {
        self.attributes = attributes
        self.language = language
        self.clock = clock
        self.client = client
        self.inner = Mutex(Inner(policy: policy))
    }

    /// The content state of the latest request, update or end; nil before `recordingStarted()`.
    public var lastContentState: RecordingActivityAttributes.ContentState? {
        inner.withLock { $0.policy.lastContentState }
    }

    /// Why the last request failed, if it did (activities disabled, for instance).
    public var lastError: String? {
        inner.withLock { $0.lastError }
    }

    /// Recording started: ends activities a crashed session left, then requests the activity.
    /// Calling it again does nothing.
    public func recordingStarted() {
        let existing = client.existingActivities()
        perform { policy, now in
            policy.recordingStarted(attributes: attributes, language: language, existing: existing, now: now)
        }
    }

    /// The final segments so far changed (pass the full list): one update when the newest lines
    /// or the count changed, none otherwise.
    public func finalSegmentsChanged(_ finals: [TranscriptSegment]) {
        perform { policy, now in policy.finalSegmentsChanged(finals, now: now) }
    }

    /// The recording's language changed (identified under `auto`): one update when it differs.
    public func languageChanged(_ language: String) {
        perform { policy, now in policy.languageChanged(language, now: now) }
    }

    /// Interim text changed. Does nothing, on purpose: the Live Activity shows final text only.
    public func interimChanged(_ text: String) {
        perform { policy, now in policy.interimChanged(text, now: now) }
    }

    /// Recording paused: one update showing the fixed elapsed time.
    public func paused() {
        perform { policy, now in policy.paused(now: now) }
    }

    /// Recording resumed: one update; the timer continues from where it paused.
    public func resumed() {
        perform { policy, now in policy.resumed(now: now) }
    }

    /// Recording stopped: one update showing the final elapsed time.
    public func stopped() {
        perform { policy, now in policy.stopped(now: now) }
    }

    /// Ends the activity (stopping first if needed) with `dismissal`.
    public func end(dismissal: ActivityDismissalPolicy) {
        perform { policy, now in policy.end(dismissal: dismissal, now: now) }
    }

    /// Lets time-driven rules run: renewal before the 8-hour limit and stale-date refresh.
    /// Call it now and then (every few seconds) while recording; most calls do nothing.
    public func clockTicked() {
        perform { policy, now in policy.clockTicked(now: now) }
    }

    private func perform(_ event: (inout LiveActivityUpdatePolicy, Date) -> [LiveActivityAction]) {
        inner.withLock { inner in
            let actions = event(&inner.policy, clock.now())
            for action in actions {
                switch action {
                case let .request(attributes, content, staleDate, timestamp):
                    do {
                        let id = try client.request(attributes: attributes, content: content, staleDate: staleDate, timestamp: timestamp)
                        inner.policy.activityRequested(id: id)
                    } catch {
                        inner.lastError = String(describing: error)
                        inner.policy.activityRequestFailed()
                    }
                case let .update(activityID, content, staleDate, timestamp):
                    client.update(activityID: activityID, content: content, timestamp: timestamp, staleDate: staleDate)
                case let .end(activityID, content, dismissal, timestamp):
                    client.end(activityID: activityID, content: content, dismissalPolicy: dismissal, timestamp: timestamp)
                }
            }
        }
    }
}
