import Foundation

/// What to search for and which page of results to return.
public struct SearchRequest: Sendable, Equatable {
    /// The user's text (see `SearchQuery`).
    public var text: String
    /// At most this many recordings.
    public var limit: Int
    /// Recordings to skip: the page starting at this rank (0 is the best).
    public var offset: Int
    /// At most this many places (matching fields and segments) per recording, best first.
    public var placesPerRecording: Int

    public init(_ text: String, limit: Int = 20, offset: Int = 0, placesPerRecording: Int = 3) {
        self.text = text
        self.limit = limit
        self.offset = offset
        self.placesPerRecording = placesPerRecording
    }
}

/// One recording found by a search, with the places in it that match, best first.
///
/// JSON: the recording's keys (as `Recording`), plus `score`, `matchingSegments` and `matches`
/// (an array of `SearchHit`).
public struct SearchResult: Sendable, Equatable, Codable {
    public var recording: Recording
    /// Relevance, higher is better; only comparable within one search.
    public var score: Double
    /// The best places: matching name, tags, summary and language first, then transcript segments.
    public var hits: [SearchHit]
    /// How many transcript segments match in all (`hits` holds the best of them).
    public var matchingSegments: Int

    public init(recording: Recording, score: Double, hits: [SearchHit], matchingSegments: Int) {
        self.recording = recording
        self.score = score
        self.hits = hits
        self.matchingSegments = matchingSegments
    }

    enum CodingKeys: String, CodingKey { case score, matchingSegments, hits = "matches" }

    public init(from decoder: any Decoder) throws {
        recording = try Recording(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        score = try container.decode(Double.self, forKey: .score)
        hits = try container.decode([SearchHit].self, forKey: .hits)
        matchingSegments = try container.decode(Int.self, forKey: .matchingSegments)
    }

    public func encode(to encoder: any Encoder) throws {
        try recording.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(score, forKey: .score)
        try container.encode(hits, forKey: .hits)
        try container.encode(matchingSegments, forKey: .matchingSegments)
    }
}

/// Which recordings `list` returns: filters and a page, newest first.
public struct ListRequest: Sendable, Equatable {
    /// Only recordings with this tag (compared without regard to case).
    public var tag: String?
    /// Only recordings started at or after this instant.
    public var since: Date?
    /// At most this many recordings; nil for all.
    public var limit: Int?
    /// Recordings to skip, newest first.
    public var offset: Int

    public init(tag: String? = nil, since: Date? = nil, limit: Int? = nil, offset: Int = 0) {
        self.tag = tag
        self.since = since
        self.limit = limit
        self.offset = offset
    }

    /// True when `recording` passes the filters (the page aside).
    public func admits(_ recording: Recording) -> Bool {
        (tag.map { wanted in recording.tags.contains { RecordingTags.same($0, wanted) } } ?? true)
            && (since.map { recording.createdAt >= $0 } ?? true)
    }
}
