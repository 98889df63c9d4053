import Foundation

/// The whole library as a front end with screens uses it: the saved recordings with search and
/// changes (`RecordingStore`), and recovery of the drafts a crash left.
///
/// Implemented by `LibraryStore` (folders plus SQLite FTS5); an app's views take
/// `any RecordingLibrary` and never name the store.
public protocol RecordingLibrary: RecordingStore {
    /// Saves every draft a crash left into the library and returns what was recovered.
    func recoverDrafts() throws -> [Recording]
}
