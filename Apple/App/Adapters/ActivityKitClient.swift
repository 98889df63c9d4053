import ActivityKit
import Foundation
import LiveTranscriberCore

/// The core's `ActivityClient` over ActivityKit: `Activity.request`, `update`, `end` and the
/// activities that exist (leftovers of a crashed session). Decides nothing: which call to make
/// and when is the `LiveActivityCoordinator`'s business.
///
/// Ordering: the coordinator calls in order and expects the calls to take effect in that order.
/// `Activity.request` is synchronous and runs at once (its identifier and any refusal go straight
/// back to the coordinator); `update` and `end` are asynchronous in ActivityKit, so they are put on
/// one first-in-first-out queue that a single task drains, awaiting each before the next. No
/// update can overtake an earlier one or follow its activity's end. Each carries the core's
/// timestamp, so the system also ignores anything older than what it shows.
final class ActivityKitClient: ActivityClient {
    private enum Operation: Sendable {
        case update(activityID: String, content: ActivityContent<RecordingActivityAttributes.ContentState>, timestamp: Date)
        case end(
            activityID: String, content: ActivityContent<RecordingActivityAttributes.ContentState>?,
            dismissal: ActivityUIDismissalPolicy, timestamp: Date)
    }

    private let queue: AsyncStream<Operation>.Continuation
    private let usesPushToken: Bool

    /// - Parameter usesPushToken: true when a push server updates the activity (requested with
    ///   `PushType.token`; the server sends the core's `LiveActivityPushPayload`); false, the
    ///   default, when only the app does: there is no LiveTranscriber server.
    init(usesPushToken: Bool = false) {
        self.usesPushToken = usesPushToken
        let (operations, queue) = AsyncStream<Operation>.makeStream(bufferingPolicy: .unbounded)
        self.queue = queue
        Task.detached(priority: .userInitiated) {
            for await operation in operations {
                await Self.perform(operation)
            }
        }
    }

    deinit {
        queue.finish()
    }

    func existingActivities() -> [ExistingActivity] {
        // ActivityKit does not say when an activity was requested; the recording's start is the
        // nearest date it keeps. Housekeeping only compares it for activities of the recording in
        // progress, and a recording is never continued across launches.
        Activity<RecordingActivityAttributes>.activities.map {
            ExistingActivity(id: $0.id, recordingID: $0.attributes.recordingID, startedAt: $0.attributes.startDate)
        }
    }

    func request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) throws -> String {
        guard ActivityAuthorizationInfo().areActivitiesEnabled else { throw ActivityKitClientError.disabled }
        let activity = try Activity.request(
            attributes: attributes, content: ActivityContent(state: content, staleDate: staleDate),
            pushType: usesPushToken ? .token : nil)
        return activity.id
    }

    func update(
        activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?
    ) {
        queue.yield(.update(activityID: activityID, content: ActivityContent(state: content, staleDate: staleDate), timestamp: timestamp))
    }

    func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    ) {
        queue.yield(.end(
            activityID: activityID, content: content.map { ActivityContent(state: $0, staleDate: nil) },
            dismissal: Self.dismissal(dismissalPolicy), timestamp: timestamp))
    }

    /// The core's dismissal policy as ActivityKit's.
    static func dismissal(_ policy: ActivityDismissalPolicy) -> ActivityUIDismissalPolicy {
        switch policy {
        case .immediate: .immediate
        case .default: .default
        case .after(let date): .after(date)
        }
    }

    private static func perform(_ operation: Operation) async {
        switch operation {
        case let .update(activityID, content, timestamp):
            // An activity the user or the system already ended is gone: nothing to update.
            guard let activity = activity(activityID) else { return }
            await activity.update(content, alertConfiguration: nil, timestamp: timestamp)
        case let .end(activityID, content, dismissal, timestamp):
            guard let activity = activity(activityID) else { return }
            await activity.end(content, dismissalPolicy: dismissal, timestamp: timestamp)
        }
    }

    private static func activity(_ id: String) -> Activity<RecordingActivityAttributes>? {
        Activity<RecordingActivityAttributes>.activities.first { $0.id == id }
    }
}

/// Why ActivityKit refused a Live Activity.
enum ActivityKitClientError: Error, CustomStringConvertible {
    /// The user turned Live Activities off for the app.
    case disabled

    var description: String {
        switch self {
        case .disabled: "Live Activities are turned off for LiveTranscriber in Settings."
        }
    }
}
