import Foundation

/// The audio file an import transcribes, as the save of its draft needs it: the recording keeps
/// the file's content digest (`AudioContentDigest`), the one a later import of the same file
/// compares with, even when the saved audio is encoded otherwise; and a duplicate is refused
/// under the library's write lock, so of two imports of one file running at once only the first
/// to save keeps it.
public struct ImportedAudio: Sendable, Equatable {
    /// The imported file's content digest, "sha256:<64 hex digits>".
    public var digest: String
    /// True to refuse the save (`LibraryError.alreadyInLibrary`, draft removed) when a recording
    /// with `digest` is already in the library; false to import the same audio once more.
    public var refusingDuplicates: Bool

    public init(digest: String, refusingDuplicates: Bool) {
        self.digest = digest
        self.refusingDuplicates = refusingDuplicates
    }
}
