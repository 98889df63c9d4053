import Foundation

/// What a caller replacing a transcript read before it made the new one
/// (`RecordingStore.replaceTranscript(…expected:)`). A re-transcription takes seconds to minutes;
/// when the stored transcript is no longer what was read (another command replaced, restored or
/// repaired it meanwhile), nothing is replaced, so neither that transcript nor the previous one
/// it kept is lost.
///
/// An enum, not an optional: a read error upstream (`try?`) can no longer turn the check off.
public enum ExpectedTranscript: Sendable, Equatable {
    /// The transcript read: replaced only while it is still these segments.
    case segments([TranscriptSegment])
    /// `transcript.json` could not be read (`LibraryError.corrupt`): replaced only while it
    /// still cannot be; the new transcript repairs the recording.
    case unreadable
    /// No check: whatever is stored is replaced (a caller that made the transcript it replaces).
    case anything

    /// True when `stored`, the transcript as the store reads it now (nil: it cannot be read), is
    /// the one this expects.
    public func matches(_ stored: [TranscriptSegment]?) -> Bool {
        switch self {
        case .segments(let segments): return stored == segments
        case .unreadable: return stored == nil
        case .anything: return true
        }
    }
}
