import Foundation

/// One thing the Live Activity policy asks its driver to do; the driver performs it on an
/// `ActivityClient`, in order.
public enum LiveActivityAction: Sendable, Equatable {
    /// Start an activity. The driver reports the identifier back with
    /// `LiveActivityUpdatePolicy.activityRequested(id:)` (or `activityRequestFailed()`).
    case request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    )
    /// Replace the content state of activity `activityID`.
    case update(activityID: String, content: RecordingActivityAttributes.ContentState, staleDate: Date?, timestamp: Date)
    /// End activity `activityID` with `content` (nil: keep what it shows) and a dismissal policy.
    case end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissal: ActivityDismissalPolicy, timestamp: Date
    )

    /// When the content of this action was produced.
    public var timestamp: Date {
        switch self {
        case .request(_, _, _, let timestamp), .update(_, _, _, let timestamp), .end(_, _, _, let timestamp):
            timestamp
        }
    }

    /// The content state this action sends, if any.
    public var content: RecordingActivityAttributes.ContentState? {
        switch self {
        case .request(_, let content, _, _), .update(_, let content, _, _): content
        case .end(_, let content, _, _): content
        }
    }
}
