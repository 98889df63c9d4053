import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Synchronization
import Testing

/// Groups every Live Activity suite, so `swift test --filter LiveActivity` runs them all.
@Suite("Live Activity")
enum LiveActivityTests {}

/// Shared instants and values for the Live Activity tests.
typealias Fixture = LiveActivityFixture

/// An `ActivityClient` that records every call, standing in for ActivityKit.
final class RecordingActivityClient: ActivityClient {
    enum Call: Equatable {
        case request(RecordingActivityAttributes, RecordingActivityAttributes.ContentState, staleDate: Date?, timestamp: Date)
        case update(String, RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?)
        case end(String, RecordingActivityAttributes.ContentState?, ActivityDismissalPolicy, timestamp: Date)
    }

    struct Refusal: Error {}

    private let state = Mutex<(calls: [Call], existing: [ExistingActivity], refuse: Bool)>(([], [], false))

    init(existing: [ExistingActivity] = [], refuse: Bool = false) {
        state.withLock { $0.existing = existing; $0.refuse = refuse }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    func existingActivities() -> [ExistingActivity] { state.withLock { $0.existing } }

    func request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) throws -> String {
        try state.withLock {
            if $0.refuse { throw Refusal() }
            $0.calls.append(.request(attributes, content, staleDate: staleDate, timestamp: timestamp))
            return "A\($0.calls.filter { if case .request = $0 { true } else { false } }.count)"
        }
    }

    func update(activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?) {
        state.withLock { $0.calls.append(.update(activityID, content, timestamp: timestamp, staleDate: staleDate)) }
    }

    func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    ) {
        state.withLock { $0.calls.append(.end(activityID, content, dismissalPolicy, timestamp: timestamp)) }
    }
}
