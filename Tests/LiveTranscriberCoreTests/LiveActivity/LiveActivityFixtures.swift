import Foundation
import LiveTranscriberCore
import Synchronization
import Testing

/// Groups every Live Activity suite, so `swift test --filter LiveActivity` runs them all.
@Suite("Live Activity")
enum LiveActivityTests {}

/// Shared instants and values for the Live Activity tests.
enum Fixture {
    /// 2023-11-14T22:13:20Z; 721,692,800 s after 2001-01-01.
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let attributes = RecordingActivityAttributes(recordingID: "rec-1", name: "Standup", startDate: t0)

    static func content(
        _ status: RecordingActivityAttributes.ContentState.Status = .recording, reference: Date = t0,
        elapsed: Double? = nil, transcript: String = "", language: String = "en-US", count: Int = 0
    ) -> RecordingActivityAttributes.ContentState {
        RecordingActivityAttributes.ContentState(
            status: status, timerReferenceDate: reference,
            elapsedSeconds: elapsed, transcript: transcript,
            language: language, segmentCount: count)
    }

    static func segments(_ texts: String...) -> [TranscriptSegment] {
        texts.enumerated().map { TranscriptSegment(text: $1, startSeconds: Double($0), endSeconds: Double($0) + 1) }
    }
}

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
