import Foundation

/// Summarizing a saved recording and keeping the result, the way every front end does it.
public enum RecordingSummarizing {
    /// Summarizes the recording `reference` names (an id, a unique id prefix or "latest") of `library` with `summarizer` and writes the summary and its
    /// tags into the recording (`Recording.apply(_:)`), against the metadata as stored when it is
    /// written, so a rename or a tag made while the summary was being written is kept.
    ///
    /// - Returns: the recording as saved and the summary the summarizer gave.
    /// - Throws: `LibraryError.readOnly` when the library cannot be changed (`writeBlock`),
    ///   before the transcript is read or a summarizer made (a model call would be made, and paid
    ///   for, in vain); `SummarizingError.noTranscriptText` when the transcript has no text
    ///   (nothing is written); `LibraryError` from the library; the errors of `makeSummarizer` and
    ///   of the summarizer (nothing is written).
    /// - Complexity: one transcript read and one summarizer call (a model call can take seconds:
    ///   call it off the main thread).
    public static func summarize(
        _ reference: String, in library: some RecordingStore, with makeSummarizer: () throws -> any Summarizer
    ) throws -> (recording: Recording, summary: TranscriptSummary) {
        let found = try library.resolve(reference)
        try library.checkCanBeChanged()
        let segments = try library.transcript(of: found.id)
        guard segments.contains(where: { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else {
            throw SummarizingError.noTranscriptText(recordingName: found.name)
        }
        let summary = try makeSummarizer().summarize(segments: segments, languageHint: found.language)
        let recording = try library.modify(found.id) { $0.apply(summary) }
        return (recording, summary)
    }
}

/// Why a recording was not summarized.
public enum SummarizingError: Error, Equatable, CustomStringConvertible {
    /// Its transcript has no text: nothing to summarize.
    case noTranscriptText(recordingName: String)

    public var description: String {
        switch self {
        case .noTranscriptText(let name): "'\(name)' has no transcript text to summarize."
        }
    }
}
