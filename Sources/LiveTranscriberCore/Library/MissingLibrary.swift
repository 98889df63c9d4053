import Foundation

/// The library before anything was saved into it: its folder does not exist yet.
///
/// Commands that read (list, search, show, export…) use it instead of opening the library, so
/// reading never creates the library's folders; only a command that saves (record, import)
/// creates them. Lists and searches are empty; anything that names a recording throws
/// `LibraryError.noLibrary`, so a change (rename, tag, delete…) changes nothing.
public final class MissingLibrary: RecordingStore {
    /// Where the library would be (the data directory), for messages.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public func list(_ request: ListRequest) throws -> [Recording] { [] }
    public func search(_ request: SearchRequest) throws -> [SearchResult] { [] }
    public func recordings(withAudioDigest digest: String) throws -> [Recording] { [] }
    public func resolve(_ reference: String) throws -> Recording { throw missing }
    public func transcript(of id: String) throws -> [TranscriptSegment] { throw missing }
    public func audioFile(of id: String) throws -> URL { throw missing }
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording { throw missing }
    public func rename(_ id: String, to name: String) throws -> Recording { throw missing }
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording { throw missing }
    public func delete(_ id: String, purge: Bool) throws { throw missing }
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws { throw missing }
    public func restorePreviousTranscript(of id: String) throws -> Bool { throw missing }

    private var missing: LibraryError { .noLibrary(directory: directory) }
}
