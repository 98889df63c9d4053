import Foundation

/// One match of a library search: a name, a transcript segment, a tag, a summary, a language or a speaker's name.
///
/// JSON keys: `id`, `name`, `createdAt`, `field`, `start` (seconds, null outside the transcript),
/// `time` ("m:ss", null outside the transcript), `snippet` (each match in `[brackets]`, with the
/// text's own `[`, `]` and `\` written `\[`, `\]` and `\\`, so a mark is never text: `jsonSnippet`),
/// `text` (the snippet as it reads, without marks), `score`.
public struct SearchHit: Sendable, Equatable, Codable {
    /// Which part of a recording matched.
    public enum Field: String, Sendable, Equatable, Codable, CaseIterable {
        case name, transcript, tag, summary, language
        /// A name the user gave one of the recording's speakers (`Recording.speakers`).
        case speaker
    }

    /// The recording's id.
    public var recordingID: String
    /// The recording's name.
    public var recordingName: String
    /// When the recording started.
    public var createdAt: Date
    public var field: Field
    /// For a transcript match, the matching segment's start, in seconds from the start of the
    /// recording, whole milliseconds (`TranscriptTime.rounded`: an index written before the
    /// transcript's times were rounded holds them as the engine summed them).
    public var startSeconds: Double?
    /// The matching text, shortened around the match, with each match between `SearchHit.matchStart`
    /// and `SearchHit.matchEnd` markers; see `snippet(open:close:)`.
    public var markedSnippet: String
    /// Relevance, higher is better (the negated FTS5 bm25 rank, weighted by field).
    public var score: Double

    /// Marks the start of a match in `markedSnippet` (U+0002).
    public static let matchStart = "\u{2}"
    /// Marks the end of a match in `markedSnippet` (U+0003).
    public static let matchEnd = "\u{3}"

    public init(
        recordingID: String, recordingName: String, createdAt: Date, field: Field,
        startSeconds: Double?, markedSnippet: String, score: Double
    ) {
        self.recordingID = recordingID
        self.recordingName = recordingName
        self.createdAt = createdAt
        self.field = field
        self.startSeconds = startSeconds.map(TranscriptTime.rounded)
        self.markedSnippet = markedSnippet
        self.score = score
    }

    /// The snippet with each match between `open` and `close`: "[" and "]" by default, or ANSI bold
    /// ("\u{1B}[1m", "\u{1B}[0m") on a terminal.
    public func snippet(open: String = "[", close: String = "]") -> String {
        markedSnippet
            .replacingOccurrences(of: Self.matchStart, with: open)
            .replacingOccurrences(of: Self.matchEnd, with: close)
    }

    /// The matching segment's time as "m:ss", nil outside the transcript.
    public var timeText: String? { startSeconds.map(ElapsedTimeFormat.clock) }

    /// The snippet as JSON's `snippet` holds it: each match between `[` and `]`, and the text's own
    /// `[`, `]` and `\` escaped with a backslash (`see [1]` matching `see` is `[see] \[1\]`).
    public var jsonSnippet: String {
        var out = ""
        out.unicodeScalars.reserveCapacity(markedSnippet.unicodeScalars.count)
        for scalar in markedSnippet.unicodeScalars {
            switch scalar {
            case "[", "]", "\\":
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(scalar)
            case Self.matchStart.unicodeScalars.first!: out.unicodeScalars.append("[")
            case Self.matchEnd.unicodeScalars.first!: out.unicodeScalars.append("]")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The marked snippet that `jsonSnippet` wrote: `[` and `]` are marks, a backslash keeps the
    /// character after it as text.
    static func markedSnippet(fromJSON snippet: String) -> String {
        var out = ""
        var escaped = false
        for scalar in snippet.unicodeScalars {
            if escaped {
                out.unicodeScalars.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "[" {
                out += Self.matchStart
            } else if scalar == "]" {
                out += Self.matchEnd
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    enum CodingKeys: String, CodingKey {
        case recordingID = "id", recordingName = "name", createdAt, field
        case startSeconds = "start", time, snippet, text, score
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordingID = try container.decode(String.self, forKey: .recordingID)
        recordingName = try container.decode(String.self, forKey: .recordingName)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        field = try container.decode(Field.self, forKey: .field)
        startSeconds = try container.decodeIfPresent(Double.self, forKey: .startSeconds).map(TranscriptTime.rounded)
        let snippet = try container.decode(String.self, forKey: .snippet)
        markedSnippet = Self.markedSnippet(fromJSON: snippet)
        score = try container.decode(Double.self, forKey: .score)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordingID, forKey: .recordingID)
        try container.encode(recordingName, forKey: .recordingName)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(field, forKey: .field)
        try container.encode(startSeconds, forKey: .startSeconds)
        try container.encode(timeText, forKey: .time)
        try container.encode(jsonSnippet, forKey: .snippet)
        try container.encode(snippet(open: "", close: ""), forKey: .text)
        try container.encode(score, forKey: .score)
    }
}
