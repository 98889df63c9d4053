import Foundation
import LiveTranscriberCore
import Synchronization

/// An `ActivityClient` that writes each call as a JSON line (see `ActivityFeedEncoder`) to a
/// closure: the Linux stand-in for ActivityKit. The CLI passes a writer for a file or stdout.
///
/// Identifiers are "activity-1", "activity-2", … in request order.
public final class JSONLinesActivityClient: ActivityClient {
    private let write: @Sendable (String) -> Void
    private let encoder = ActivityFeedEncoder()
    private let requests = Mutex(0)

    /// - Parameter write: receives each line, without a trailing newline.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public func request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) throws -> String {
        let number = requests.withLock { count in
            count += 1
            return count
        }
        let id = "activity-\(number)"
        write(encoder.start(activityID: id, attributes: attributes, content: content, staleDate: staleDate, timestamp: timestamp))
        return id
    }

    public func update(
        activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?
    ) {
        write(encoder.update(activityID: activityID, content: content, staleDate: staleDate, timestamp: timestamp))
    }

    public func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    ) {
        write(encoder.end(activityID: activityID, content: content, dismissalPolicy: dismissalPolicy, timestamp: timestamp))
    }
}
