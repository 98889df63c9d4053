import Foundation

/// The APNs payload that starts, updates or ends the Live Activity from a server.
///
/// Shape (Apple: "Starting and updating Live Activities with ActivityKit push notifications"):
/// `{"aps": {"timestamp": Int, "event": "start"|"update"|"end", "content-state": {...},
/// "stale-date"?: Int, "dismissal-date"?: Int, "relevance-score"?: Double,
/// "attributes-type"?: "RecordingActivityAttributes", "attributes"?: {...}}}`.
/// The `aps` dates are Unix seconds (from 1970). Dates *inside* `content-state` and `attributes`
/// are decoded by ActivityKit with a default `JSONDecoder`, so they are written as `Date`'s
/// default `Codable` form: seconds since 2001-01-01 (`Date.timeIntervalSinceReferenceDate`).
public struct LiveActivityPushPayload: Sendable, Equatable {
    /// The `event` field.
    public enum Event: String, Sendable, Equatable, Codable {
        case start
        case update
        case end
    }

    /// The `attributes-type` for a start event: the Swift type name the widget declares.
    public static let attributesType = "RecordingActivityAttributes"

    /// Start, update or end.
    public var event: Event
    /// When the content was produced; APNs and the system drop a payload older than the last.
    public var timestamp: Date
    /// The `content-state`.
    public var content: RecordingActivityAttributes.ContentState
    /// When the system may show the activity as out of date.
    public var staleDate: Date?
    /// For `end`: when the ended activity leaves the Lock Screen (omitted: the system decides).
    public var dismissalDate: Date?
    /// Which of several activities the system puts first (higher first); omitted when nil.
    public var relevanceScore: Double?
    /// Only for `start`.
    public var attributes: RecordingActivityAttributes?

    public init(
        event: Event, timestamp: Date, content: RecordingActivityAttributes.ContentState, staleDate: Date? = nil,
        dismissalDate: Date? = nil, relevanceScore: Double? = nil, attributes: RecordingActivityAttributes? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.content = content
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.attributes = event == .start ? attributes : nil
    }

    /// The payload that does what `action` does; nil for an end with no content state
    /// (APNs needs one).
    ///
    /// The dismissal policy maps to `dismissal-date`: `.immediate` → the timestamp (a date that
    /// has passed removes it at once), `.default` → omitted, `.after(date)` → `date`.
    public init?(action: LiveActivityAction, relevanceScore: Double? = nil) {
        switch action {
        case let .request(attributes, content, staleDate, timestamp):
            self.init(event: .start, timestamp: timestamp, content: content, staleDate: staleDate,
                      relevanceScore: relevanceScore, attributes: attributes)
        case let .update(_, content, staleDate, timestamp):
            self.init(event: .update, timestamp: timestamp, content: content, staleDate: staleDate,
                      relevanceScore: relevanceScore)
        case let .end(_, content?, dismissal, timestamp):
            let dismissalDate: Date? = switch dismissal {
            case .immediate: timestamp
            case .default: nil
            case .after(let date): date
            }
            self.init(event: .end, timestamp: timestamp, content: content, dismissalDate: dismissalDate,
                      relevanceScore: relevanceScore)
        case .end(_, nil, _, _):
            return nil
        }
    }

    /// Whole Unix seconds (rounded down); 0 for a date that is not finite.
    public static func unixSeconds(_ date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
        return Int(seconds.rounded(.down))
    }

    /// The payload as JSON with sorted keys, ready for APNs.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Body(payload: self))
    }

    /// `encoded()` as a UTF-8 string.
    public func jsonString() throws -> String {
        String(decoding: try encoded(), as: UTF8.self)
    }

    private struct Body: Encodable {
        var aps: APS

        init(payload: LiveActivityPushPayload) {
            aps = APS(
                timestamp: LiveActivityPushPayload.unixSeconds(payload.timestamp),
                event: payload.event,
                contentState: payload.content,
                staleDate: payload.staleDate.map(LiveActivityPushPayload.unixSeconds),
                dismissalDate: payload.dismissalDate.map(LiveActivityPushPayload.unixSeconds),
                relevanceScore: payload.relevanceScore,
                attributesType: payload.attributes == nil ? nil : LiveActivityPushPayload.attributesType,
                attributes: payload.attributes
            )
        }
    }

    private struct APS: Encodable {
        var timestamp: Int
        var event: Event
        var contentState: RecordingActivityAttributes.ContentState
        var staleDate: Int?
        var dismissalDate: Int?
        var relevanceScore: Double?
        var attributesType: String?
        var attributes: RecordingActivityAttributes?

        enum CodingKeys: String, CodingKey {
            case timestamp
            case event
            case contentState = "content-state"
            case staleDate = "stale-date"
            case dismissalDate = "dismissal-date"
            case relevanceScore = "relevance-score"
            case attributesType = "attributes-type"
            case attributes
        }
    }
}
