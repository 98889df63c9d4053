import Foundation

/// A Live Activity that exists on the device, as the client lists it at start-up.
public struct ExistingActivity: Sendable, Equatable, Hashable, Codable {
    /// The system's identifier for the activity (ActivityKit's `Activity.id`).
    public var id: String
    /// The recording it was started for (from its attributes).
    public var recordingID: String
    /// When it was requested (wall clock).
    public var startedAt: Date

    public init(id: String, recordingID: String, startedAt: Date) {
        self.id = id
        self.recordingID = recordingID
        self.startedAt = startedAt
    }
}

/// What the Live Activity coordinator drives: ActivityKit on iOS, a JSON Lines feed or the
/// terminal card on Linux, a recorder in tests. Names no platform type.
///
/// Calls arrive in order, from one coordinator at a time, and timestamps never go backwards.
public protocol ActivityClient: AnyObject, Sendable {
    /// The activities of this kind that exist now, for ending those a crashed session left.
    func existingActivities() -> [ExistingActivity]

    /// Starts an activity (ActivityKit `Activity.request(attributes:content:)`).
    /// - Parameters:
    ///   - attributes: fixed for the activity's life.
    ///   - content: the first content state.
    ///   - staleDate: when the system may show the activity as out of date; nil for never.
    ///   - timestamp: when this content was produced.
    /// - Returns: the new activity's identifier.
    /// - Throws: when the system refuses (activities disabled, too many activities).
    func request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) throws -> String

    /// Replaces the content state of activity `activityID`.
    /// - Parameter timestamp: when this content was produced; the system ignores an update older
    ///   than the one it shows, and the coordinator never sends one.
    func update(
        activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?
    )

    /// Ends activity `activityID`, showing `content` (nil: keep the last) until it is dismissed.
    func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    )
}

extension ActivityClient {
    /// No activities survive by default (a client with no system behind it).
    public func existingActivities() -> [ExistingActivity] { [] }
}
