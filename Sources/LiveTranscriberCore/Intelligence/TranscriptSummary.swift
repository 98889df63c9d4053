import Foundation

/// What summarizing a transcript produces.
public struct TranscriptSummary: Sendable, Equatable, Codable {
    /// One sentence, or an empty string when the transcript has no text.
    public var summary: String
    /// Three to five topic tags (fewer for a very short transcript), lower-cased where the script has case.
    public var tags: [String]
    /// The intermediate semantic notes (model path only; empty for the extractive path).
    public var notes: [String]
    /// The language the summary was asked to be written in.
    public var language: OutputLanguage
    /// Which engine wrote it: "offline" or "model".
    public var engine: String

    public init(summary: String, tags: [String], notes: [String] = [], language: OutputLanguage, engine: String) {
        self.summary = summary
        self.tags = tags
        self.notes = notes
        self.language = language
        self.engine = engine
    }
}
