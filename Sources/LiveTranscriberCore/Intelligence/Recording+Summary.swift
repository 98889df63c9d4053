import Foundation

extension Recording {
    /// Writes a summary into the recording: the summary text replaces the old one, and the
    /// suggested tags are added by the tag rules (`RecordingTags.cleaned`): a suggested tag the
    /// recording has in another case is the same tag, the stored spelling is kept, and no tag the
    /// user gave is removed.
    public mutating func apply(_ summary: TranscriptSummary) {
        self.summary = summary.summary
        tags = RecordingTags.cleaned(tags + summary.tags)
    }
}
