import Foundation

/// Something that turns a transcript into a summary and tags.
public protocol Summarizer {
    /// The summary and tags of `segments`.
    ///
    /// - Parameters:
    ///   - segments: The transcript, in any order (sanitized first).
    ///   - languageHint: The recording's BCP 47 language ("en-US"), used when the script is ambiguous.
    /// - Throws: The model's errors (the offline summarizer never throws).
    func summarize(segments: [TranscriptSegment], languageHint: String) throws -> TranscriptSummary
}
