import Foundation
import LiveTranscriberCore

/// Writes what the Live Activity coordinator does as JSON Lines: one object per request, update
/// or end, for `record --activity-feed` and for scripts that watch a recording.
///
/// Each line has sorted keys: `action` ("start", "update", "end"), `activityID`, `timestamp`,
/// `contentState` (absent for an end that keeps the last content), and as they apply
/// `attributes` (start), `staleDate`, `dismissalPolicy` and `dismissalDate` (end). All dates in
/// the feed, including those inside `contentState`, are ISO 8601 in UTC ("2023-11-14T22:13:20Z"),
/// unlike the push payload, because the feed is read by people and scripts, not by ActivityKit.
public struct ActivityFeedEncoder: Sendable {
    public init() {}

    /// One line (no newline at the end) for a start.
    public func start(
        activityID: String, attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) -> String {
        line(Line(action: "start", activityID: activityID, timestamp: timestamp, contentState: content,
                  attributes: attributes, staleDate: staleDate))
    }

    /// One line for an update.
    public func update(
        activityID: String, content: RecordingActivityAttributes.ContentState, staleDate: Date?, timestamp: Date
    ) -> String {
        line(Line(action: "update", activityID: activityID, timestamp: timestamp, contentState: content, staleDate: staleDate))
    }

    /// One line for an end.
    public func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    ) -> String {
        line(Line(action: "end", activityID: activityID, timestamp: timestamp, contentState: content,
                  dismissalPolicy: dismissalPolicy.name, dismissalDate: dismissalPolicy.date))
    }

    private func line(_ value: Line) -> String {
        // Plain strings, numbers and finite dates: encoding cannot fail.
        (try? JSONText.line(value)) ?? "{}"
    }

    private struct Line: Encodable {
        var action: String
        var activityID: String
        var timestamp: Date
        var contentState: RecordingActivityAttributes.ContentState?
        var attributes: RecordingActivityAttributes?
        var staleDate: Date?
        var dismissalPolicy: String?
        var dismissalDate: Date?
    }
}

/// One line of the activity feed as read back (`ActivityFeedEncoder` writes it): for a program
/// that follows a recording through its feed, such as `serve`'s Live page. Keys it does not use
/// are ignored.
public struct ActivityFeedLine: Sendable, Equatable, Decodable {
    /// "start", "update" or "end".
    public var action: String
    public var activityID: String
    /// Given with "start".
    public var attributes: RecordingActivityAttributes?
    /// Absent from an end that keeps the last content.
    public var contentState: RecordingActivityAttributes.ContentState?

    /// The line decoded (dates ISO 8601, as written), nil when it is not a feed line.
    public static func decode(_ line: some StringProtocol) -> ActivityFeedLine? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(ActivityFeedLine.self, from: Data(line.utf8))
    }
}
