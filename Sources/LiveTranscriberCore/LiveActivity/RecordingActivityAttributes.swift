import Foundation

/// The part of the recording's Live Activity that is fixed for the activity's life.
///
/// Mirrors an ActivityKit `ActivityAttributes` type without importing ActivityKit: the iOS widget
/// declares a conformance in its own target. Encoded with stable JSON keys `recordingID`, `name`,
/// `startDate`; dates use `Date`'s default `Codable` form (seconds since 2001-01-01), the form
/// ActivityKit's default `JSONDecoder` expects.
public struct RecordingActivityAttributes: Sendable, Equatable, Hashable, Codable {
    /// The recording this activity shows; also tells a leftover activity from the current one.
    public var recordingID: String
    /// The recording's name as the user sees it.
    public var name: String
    /// When the recording started (wall clock).
    public var startDate: Date

    public init(recordingID: String, name: String, startDate: Date) {
        self.recordingID = recordingID
        self.name = name
        self.startDate = startDate
    }

    enum CodingKeys: String, CodingKey {
        case recordingID
        case name
        case startDate
    }
}
