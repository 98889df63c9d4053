import Foundation

extension Recording {
    /// Writes a summary into the recording: the summary text replaces the old one, and each
    /// suggested tag is added unless the recording already has it in any letter case (tags the
    /// user gave are never removed or re-cased).
    public mutating func apply(_ summary: TranscriptSummary) {
        self.summary = summary.summary
        for tag in summary.tags where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) {
            tags.append(tag)
        }
    }
}
