import Foundation
import LiveTranscriberCore

/// The store's drafts, as the recording engine uses them (`RecordingDraftStore`): each call is
/// its drafts part's (`LibraryDrafts`, where the rules and their documentation are).
extension LibraryStore: RecordingDraftStore {
    public func newRecordingID(date: Date) -> String { RecordingID.new(date: date) }

    /// Creates `drafts/<id>/` with `draft.json` and a held `lock` (`LibraryDrafts.createDraft`).
    /// - Throws: `LibraryError.invalid` for a bad or taken id; file system errors.
    public func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription,
        name: String? = nil, tags: [String] = [], keepIfInterrupted: Bool = true, vocabulary: [String] = []
    ) throws -> RecordingDraft {
        try drafts.createDraft(id: id, createdAt: createdAt, language: language, audio: audio, name: name, tags: tags,
                               keepIfInterrupted: keepIfInterrupted, vocabulary: vocabulary)
    }

    /// Rewrites the draft's `draft.json` with `language` (`LibraryDrafts.updateLanguage`).
    public func updateLanguage(_ language: String, draft: RecordingDraft) throws {
        try drafts.updateLanguage(language, draft: draft)
    }

    /// Appends one final segment to the draft's `journal.jsonl` and fsyncs it.
    public func appendToJournal(_ segment: TranscriptSegment, draft: RecordingDraft) throws {
        try drafts.appendToJournal(segment, draft: draft)
    }

    /// Saves the draft as a recording (`LibraryDrafts.saveDraft`).
    /// - Throws: `LibraryError.alreadyInLibrary` when `imported` refuses a duplicate;
    ///   `LibraryError.saveFailed` when the draft is kept for `recover`.
    public func saveDraft(
        _ draft: RecordingDraft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment], encoding: DraftAudioEncoding? = nil,
        imported: ImportedAudio? = nil, language: String? = nil, vocabulary: [String] = [], notes: [String] = []
    ) throws -> Recording {
        try drafts.saveDraft(draft, name: name, tags: tags, location: location, durationSeconds: durationSeconds,
                             segments: segments, encoding: encoding, imported: imported, language: language, vocabulary: vocabulary,
                             notes: notes)
    }

    /// Deletes the draft folder with its audio and journal, and releases its lock.
    public func discardDraft(_ draft: RecordingDraft) throws {
        try drafts.discardDraft(draft)
    }

    /// Turns every draft left by a crash into a saved recording marked `recovered`
    /// (`LibraryDrafts.recoverDrafts`); a draft that fails is reported in `recoveryProblems`.
    /// - Returns: The recovered recordings, oldest first.
    @discardableResult
    public func recoverDrafts() throws -> [Recording] {
        try drafts.recoverDrafts()
    }

    /// Drafts the last `recoverDrafts()` could not recover, by id, with why (left in `drafts/`).
    public var recoveryProblems: [String: DraftRecoveryProblem] { drafts.recoveryProblems }
    /// What the last `recoverDrafts()` wants the user to know about a recovered draft, by id
    /// (such as a damaged `draft.json`: the audio was kept, the name was lost).
    public var recoveryNotes: [String: DraftRecoveryNote] { drafts.recoveryNotes }

    /// True when `directory`'s `drafts/` holds a draft that a recovery would act on, without
    /// opening the library (`LibraryDrafts.hasDraftsToRecover`).
    public static func hasDraftsToRecover(in directory: URL) -> Bool {
        LibraryDrafts.hasDraftsToRecover(in: directory)
    }

    /// The creation date of draft `id`, from the id itself (`LibraryDrafts.creationDate`).
    static func creationDate(ofDraft id: String, folder: URL) -> Date {
        LibraryDrafts.creationDate(ofDraft: id, folder: folder)
    }
}
