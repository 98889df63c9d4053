import Foundation

/// The saved-recordings library, as commands and views use it.
///
/// Files are the truth (one folder per recording); the index behind `search` is a cache.
/// Implemented on Linux by `LibraryStore` (folders plus SQLite FTS5).
public protocol RecordingStore: AnyObject {
    /// Every saved recording, newest first.
    func list() throws -> [Recording]
    /// The recording a user means by `reference`: an exact id, a unique id prefix, or "latest".
    /// Throws `LibraryError.notFound` or `LibraryError.ambiguous`.
    func resolve(_ reference: String) throws -> Recording
    /// The final segments of a recording, in start order.
    func transcript(of id: String) throws -> [TranscriptSegment]
    /// The recording's audio file.
    func audioFile(of id: String) throws -> URL
    /// Changes a recording's metadata (name, tags, summary) and reindexes it.
    ///
    /// `change` runs on the stored metadata as it is at that moment, inside the library's write
    /// lock, so two processes changing the same recording never lose each other's change (a
    /// summary written while the user adds a tag keeps the tag).
    /// - Returns: the recording as written. Throws `LibraryError.notFound`.
    @discardableResult
    func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording
    /// Replaces the transcript, keeping the previous one so it can be restored.
    func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws
    /// Puts back the transcript the last `replaceTranscript` replaced; the one replaced by the
    /// restore becomes the previous transcript, so restoring twice returns to where it started.
    /// Returns false, changing nothing, when no previous transcript is kept.
    /// Throws `LibraryError.notFound` for an unknown id.
    func restorePreviousTranscript(of id: String) throws -> Bool
}

/// Why a library operation failed.
public enum LibraryError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, matches: [String])
    case corrupt(path: String, reason: String)
    /// A value the library cannot store, such as an empty name; the text says what is wrong.
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound(let reference) where reference.lowercased() == "latest":
            return "there are no recordings yet. Make one with 'livetranscriber record'."
        case .notFound(let reference):
            return "no recording matches '\(reference)'. Run 'livetranscriber list' to see the ids."
        case .ambiguous(let reference, let matches):
            let shown = matches.prefix(5).joined(separator: ", ")
            let more = matches.count > 5 ? " and \(matches.count - 5) more" : ""
            return "'\(reference)' matches \(matches.count) recordings (\(shown)\(more)); give more of the id."
        case .corrupt(let path, let reason):
            return "the library file \(path) is unreadable: \(reason)"
        case .invalid(let reason):
            return reason
        }
    }
}
