import Foundation

/// The saved-recordings library, as commands use it. Recording into it (drafts) is the
/// `RecordingDraftStore` protocol, which both stores implement too.
///
/// Files are the truth (one folder per recording); the index behind `list` and `search` is a cache.
/// Implemented on Linux by `LibraryStore` (folders plus SQLite FTS5) and in tests by
/// `InMemoryRecordingStore`; one conformance suite runs against both.
public protocol RecordingStore: AnyObject {
    // MARK: Reading

    /// Saved recordings that pass `request`'s filters, newest first (ties by id, descending),
    /// paged by its `limit` and `offset`.
    func list(_ request: ListRequest) throws -> [Recording]
    /// The recording a user means by `reference`: an exact id, a unique id prefix, or "latest".
    /// Throws `LibraryError.notFound` or `LibraryError.ambiguous`; `.corrupt` when it names (exactly,
    /// else as the only recording with that prefix) one that cannot be read (`unreadableFolders`).
    func resolve(_ reference: String) throws -> Recording
    /// Recordings that match `request.text`, best first, each with its best places.
    ///
    /// Recordings holding every term come first, ranked by BM25 (`SearchScore`); then those
    /// holding some of the terms. Any text is safe: text without letters or digits finds nothing.
    func search(_ request: SearchRequest) throws -> [SearchResult]
    /// Saved recordings whose audio has this content digest (`Recording.audioDigest`), newest first.
    func recordings(withAudioDigest digest: String) throws -> [Recording]
    /// Every tag the saved recordings have, one of each regardless of case, exactly as
    /// `RecordingTags.all(in: list())` gives them (the newest recording's spelling; sorted by case
    /// key), but without reading every recording when the store can avoid it.
    func allTags() throws -> [String]
    /// The final segments of a recording, in start order.
    func transcript(of id: String) throws -> [TranscriptSegment]
    /// The recording's audio file (which may be missing: `isAudioMissing`).
    func audioFile(of id: String) throws -> URL
    /// True when saved recording `id` is in the library but its audio file is not (removed by
    /// hand: `MissingAudioFile`); false for an id that names no saved recording.
    func isAudioMissing(_ id: String) -> Bool
    /// Saved recordings the library holds but cannot read (a damaged metadata.json or
    /// transcript.json), which `list`, `search` and `resolve` leave out, each with why, in id
    /// order; none when there are none. Reading this changes nothing.
    func unreadableFolders() throws -> [UnreadableRecordingFolder]
    /// True when `id` names, exactly (never a prefix), a saved recording that cannot be read: one
    /// `resolve` refuses with `LibraryError.corrupt` (`UnreadableRecordingFolder.resolveError`),
    /// but that `delete(_:purge:)` still removes by that id.
    func isUnreadableFolder(_ id: String) -> Bool
    /// Why the library cannot be changed at this moment (read-only media, a folder the user may
    /// not write, a full disk), nil when it can. Asked before work whose only purpose is a change
    /// (transcribing again, summarizing, importing, recording: `checkCanBeChanged()`), so that such
    /// work is refused at once instead of being done and then lost; every change also refuses by
    /// itself with `LibraryError.readOnly`.
    var writeBlock: LibraryWriteBlock? { get }

    // MARK: Changes

    /// Changes a recording's metadata (name, tags, summary) and reindexes it.
    ///
    /// `change` runs on the stored metadata as it is at that moment, inside the library's write
    /// lock, so two processes changing the same recording never lose each other's change (a
    /// summary written while the user adds a tag keeps the tag).
    /// - Returns: the recording as written. Throws `LibraryError.notFound`.
    @discardableResult
    func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording
    /// Renames recording `id` (see `RecordingName.validated`).
    /// - Throws: `LibraryError.invalid` for a name the rules refuse, `.notFound`.
    @discardableResult
    func rename(_ id: String, to name: String) throws -> Recording
    /// Adds and removes tags against the tags as stored now (`RecordingTags.changed`): tags match
    /// regardless of case; a tag both added and removed is removed.
    /// Throws `LibraryError.invalid` for a tag the rules refuse, `.notFound`.
    @discardableResult
    func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording
    /// Moves recording `id` out of the library (to the trash, or for good when `purge`), an
    /// unreadable one (`isUnreadableFolder`) included. Throws `LibraryError.notFound`.
    func delete(_ id: String, purge: Bool) throws
    /// Replaces the transcript, and the recording's language when `language` (a BCP 47 tag) is
    /// given, in one change; the previous transcript is kept with the language the recording had,
    /// so it can be restored. The recording's vocabulary becomes `vocabulary` when given (the terms
    /// the new transcript's recognizer was given); nil keeps it. Its speakers
    /// (`Recording.speakers`) become `speakers` when given (the voices the new segments name); nil
    /// keeps them. Its notes (`Recording.notes`, on how the transcript was made) become `notes`
    /// when given; nil keeps them. The previous transcript keeps the speakers and notes the
    /// recording had with it, and a restore puts them back.
    ///
    /// - Parameter expected: the transcript the caller read before making the new one
    ///   (`ExpectedTranscript`). When the stored transcript is no longer that one (another command
    ///   replaced, restored or repaired it meanwhile), nothing changes, so neither that transcript
    ///   nor the one it kept as the previous is lost.
    /// - Throws: `LibraryError.notFound`; `LibraryError.changedMeanwhile` when `expected` no
    ///   longer matches.
    func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?,
                           speakers: [Speaker]?, notes: [String]?, expected: ExpectedTranscript) throws
    /// Puts back the transcript the last `replaceTranscript` replaced, and the language the
    /// recording had with it; the transcript and language replaced by the restore become the
    /// previous ones, so restoring twice returns to where it started.
    /// Returns false, changing nothing, when no previous transcript is kept.
    /// Throws `LibraryError.notFound` for an unknown id.
    func restorePreviousTranscript(of id: String) throws -> Bool
    /// The translation kept next to the transcript (`translation.json`; whisper's translate task),
    /// in start order; nil when the recording has none (`Recording.translation` is nil).
    /// - Throws: `LibraryError.notFound` for an unknown id; `.corrupt` when the file cannot be read.
    func translation(of id: String) throws -> [TranscriptSegment]?
    /// Keeps `segments` as the recording's translation into `language` (a BCP 47 tag, "en"),
    /// replacing one kept before, and sets `Recording.translation`. The transcript is unchanged.
    /// - Throws: `LibraryError.notFound` for an unknown id; the store's write errors (nothing changes).
    func saveTranslation(of id: String, _ segments: [TranscriptSegment], language: String) throws
    /// The recording `reference` names, for a command that gives it a new transcript
    /// (re-transcription, restoring the previous one): as `resolve`, and also a recording whose
    /// metadata can be read but whose transcript cannot, since a new transcript is its repair.
    /// Throws what `resolve` throws.
    func resolveForNewTranscript(_ reference: String) throws -> Recording
}

extension RecordingStore {
    /// Every saved recording, newest first.
    public func list() throws -> [Recording] { try list(ListRequest()) }

    /// Replaces the transcript and keeps the recording's notes.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?,
                                  speakers: [Speaker]?, expected: ExpectedTranscript) throws {
        try replaceTranscript(of: id, with: segments, language: language, vocabulary: vocabulary, speakers: speakers, notes: nil,
                              expected: expected)
    }

    /// Replaces the transcript and keeps the recording's speakers and notes.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?,
                                  expected: ExpectedTranscript) throws {
        try replaceTranscript(of: id, with: segments, language: language, vocabulary: vocabulary, speakers: nil, notes: nil,
                              expected: expected)
    }

    /// Replaces the transcript, whatever it is now (no `expected` check).
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?) throws {
        try replaceTranscript(of: id, with: segments, language: language, vocabulary: vocabulary, expected: .anything)
    }

    /// Replaces the transcript and keeps the recording's language.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws {
        try replaceTranscript(of: id, with: segments, language: nil, vocabulary: nil)
    }

    /// Replaces the transcript, and the language when given; keeps the vocabulary.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?) throws {
        try replaceTranscript(of: id, with: segments, language: language, vocabulary: nil)
    }

    /// Throws `LibraryError.readOnly` with `writeBlock` when the library cannot be changed now;
    /// nothing otherwise. Called before transcribing, summarizing, importing or recording, whose
    /// result could not be saved.
    public func checkCanBeChanged() throws {
        if let block = writeBlock { throw LibraryError.readOnly(block) }
    }

    /// `resolve`: a store whose transcripts are always readable has nothing more to find.
    public func resolveForNewTranscript(_ reference: String) throws -> Recording { try resolve(reference) }

    /// The best 20 recordings matching `text`, with up to 3 places each.
    public func search(_ text: String, limit: Int = 20) throws -> [SearchResult] {
        try search(SearchRequest(text, limit: limit))
    }
}

/// Why a library operation failed.
public enum LibraryError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, matches: [String])
    case corrupt(path: String, reason: String)
    /// A value the library cannot store, such as an empty name; the text says what is wrong.
    case invalid(String)
    /// Another process held the index past the busy timeout; nothing was changed.
    case busy
    /// The library cannot be changed: `block` says why (read-only media, a full disk).
    case readOnly(LibraryWriteBlock)
    /// A recording could not be saved; its draft (audio and journal) is kept at `draftPath` and
    /// will be saved by `recover` (or any library command) once the cause is gone.
    case saveFailed(id: String, reason: String, keptSeconds: Double, keptSegments: Int, draftPath: String)
    /// An import was not saved: a recording of the same audio (its `audioDigest`) is already in
    /// the library, as `id` named `name`; `audioMissing` when that recording's audio file is gone
    /// (`MissingAudioFile`), which the sentence then says.
    case alreadyInLibrary(id: String, name: String, audioMissing: Bool = false)
    /// A new transcript was not saved: recording `id`'s transcript was replaced (or restored) by
    /// another command after this one read it (`replaceTranscript(…expected:)`); nothing changed.
    case changedMeanwhile(id: String)

    public var description: String {
        switch self {
        case .busy:
            return "the library's index is busy: another process has held it for more than 5 seconds. Nothing was changed; try again."
        case .readOnly(let block):
            return block.description
        case .saveFailed(let id, let reason, let seconds, let segments, let path):
            return "could not save recording \(id): \(reason). What was written is kept: its audio (\(ElapsedTimeFormat.clock(seconds))) and "
                + "\(Plural.count(segments, "final segment")) are kept in \(path). Once the cause is fixed (free some space), "
                + "run 'livetranscriber recover' to save it."
        case .notFound(let reference) where RecordingID.isLatest(reference):
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
        case .alreadyInLibrary(let id, let name, let audioMissing):
            return "it is already in the library as \(id) '\(VisibleText.escaped(name))'" + (audioMissing ? ", but \(MissingAudioFile.clause)" : "")
        case .changedMeanwhile(let id):
            return "the transcript of \(id) was replaced by another command while this one was transcribing it; the new transcript was not "
                + "saved, and the one there now is kept (run this again to replace it)"
        }
    }
}
