import Foundation

/// The whole library as a front end with screens uses it: the saved recordings
/// (`RecordingStore`), search, delete and recovery of drafts a crash left.
///
/// Implemented by `LibraryStore` (folders plus SQLite FTS5), which already has these methods with
/// these signatures; an app's views take `any RecordingLibrary` and never name the store.
public protocol RecordingLibrary: RecordingStore {
    /// Recordings matching `text` in names, transcripts, tags, summaries and languages, best
    /// first, at most `limit`. An empty query matches nothing.
    func search(_ text: String, limit: Int) throws -> [SearchHit]
    /// Moves a recording to the trash folder, or removes it for good when `purge` is true.
    /// Throws `LibraryError.notFound`.
    func delete(_ id: String, purge: Bool) throws
    /// Saves every draft a crash left into the library and returns what was recovered.
    func recoverDrafts() throws -> [Recording]
}
