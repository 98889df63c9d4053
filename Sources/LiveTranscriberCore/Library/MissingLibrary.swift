import Foundation

/// The library before anything was saved into it: its folder does not exist yet.
///
/// Commands that read (list, search, show, export…) use it instead of opening the library, so
/// reading never creates the library's folders; only a command that saves (record, import)
/// creates them. It reads as an empty library: lists and searches are empty, and anything that
/// names a recording throws `LibraryError.notFound` ("there are no recordings yet" for "latest"),
/// so a change (rename, tag, delete…) changes nothing.
public final class MissingLibrary: RecordingStore {
    public init() {}

    public func list(_ request: ListRequest) throws -> [Recording] { [] }
    public func search(_ request: SearchRequest) throws -> [SearchResult] { [] }
    public func recordings(withAudioDigest digest: String) throws -> [Recording] { [] }
    public func allTags() throws -> [String] { [] }
    public func resolve(_ reference: String) throws -> Recording {
        try RecordingID.resolve(reference, latest: { nil }, exact: { _ in nil }, prefixed: { _ in [] })
    }
    public func transcript(of id: String) throws -> [TranscriptSegment] { throw LibraryError.notFound(id) }
    public func audioFile(of id: String) throws -> URL { throw LibraryError.notFound(id) }
    public func isAudioMissing(_ id: String) -> Bool { false }
    public func unreadableFolders() throws -> [UnreadableRecordingFolder] { [] }
    public func isUnreadableFolder(_ id: String) -> Bool { false }
    /// Nil: nothing is in it to change, and a command that saves makes the library (and says so if it cannot).
    public var writeBlock: LibraryWriteBlock? { nil }
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording { throw LibraryError.notFound(id) }
    public func rename(_ id: String, to name: String) throws -> Recording { throw LibraryError.notFound(id) }
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording { throw LibraryError.notFound(id) }
    public func delete(_ id: String, purge: Bool) throws { throw LibraryError.notFound(id) }
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?,
                                  speakers: [Speaker]?, notes: [String]?, expected: ExpectedTranscript) throws {
        throw LibraryError.notFound(id)
    }
    public func restorePreviousTranscript(of id: String) throws -> Bool { throw LibraryError.notFound(id) }
    public func translation(of id: String) throws -> [TranscriptSegment]? { throw LibraryError.notFound(id) }
    public func saveTranslation(of id: String, _ segments: [TranscriptSegment], language: String) throws { throw LibraryError.notFound(id) }
}
