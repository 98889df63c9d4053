import Foundation

/// An in-progress recording as the store hands it out: the recorder writes `audioFile` and
/// journals final segments against it.
public protocol RecordingDraftHandle: Sendable {
    /// The recording id the draft will be saved under.
    var id: String { get }
    /// Where the recorder writes the original audio.
    var audioFile: URL { get }
}

/// The part of the library a recording engine needs: drafts that survive a crash, then save or
/// discard.
///
/// Implemented on Linux (and by the same portable code on iOS) by `LibraryStore`, and in tests by
/// `InMemoryRecordingStore`; `RecordingDraftStoreConformance` holds both to the same rules.
public protocol RecordingDraftStore: AnyObject {
    associatedtype Draft: RecordingDraftHandle

    /// A fresh id for a recording started at `date` ("yyyyMMdd-HHmmss-xxxx", UTC, sorts by time).
    func newRecordingID(date: Date) -> String

    /// Creates the draft before any audio is written.
    /// - Parameters:
    ///   - id: from `newRecordingID(date:)`.
    ///   - createdAt: when recording started.
    ///   - language: BCP 47 tag of the transcript.
    ///   - audio: the stored file's format, rate and channels.
    ///   - name, tags: given up front, kept if the draft is recovered after a crash.
    ///   - vocabulary: the terms the recognizer was given (`Vocabulary`), kept likewise.
    ///   - keepIfInterrupted: false when nothing of the draft may outlive a crash or a failed save
    ///     (`record --discard`; an import, which can simply be run again): recovery removes it.
    /// - Throws: `LibraryError.invalid` for a taken id; file system errors.
    func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription,
        name: String?, tags: [String], keepIfInterrupted: Bool, vocabulary: [String]
    ) throws -> Draft

    /// Records the recording's language in the draft once it differs from the one the draft was
    /// created with: under "auto" it is identified on the first speech (`LanguageLock`), after the
    /// draft began with the fallback. Durable before it returns, so a draft recovered after a
    /// crash keeps it.
    /// - Parameter language: a BCP 47 tag.
    /// - Throws: file system errors.
    func updateLanguage(_ language: String, draft: Draft) throws

    /// Appends one final segment to the draft's journal and makes it durable before returning,
    /// so a crash loses no final segment. Throws when it cannot be made durable (full disk).
    func appendToJournal(_ segment: TranscriptSegment, draft: Draft) throws

    /// Saves the draft as a recording and returns it as the library lists it.
    /// - Parameters:
    ///   - name: nil or blank for the default name.
    ///   - durationSeconds: seconds of audio, pauses excluded.
    ///   - segments: the final segments.
    ///   - encoding: nil to keep the draft's audio as it is; else encode it first, with
    ///     `DraftAudioEncoding`'s rule (the draft's file kept until the encoded one is durable, the
    ///     draft's format kept when encoding fails).
    ///   - imported: nil for a recording; for an import, the file's digest, which the recording
    ///     keeps instead of its saved audio's, and whether a recording of the same audio refuses it.
    ///   - language: the recording's language when the recognizer settled it after the draft was
    ///     created (`--language auto`: detected on the first utterance); nil keeps the draft's.
    ///   - vocabulary: the terms the recognizer was given (`Vocabulary`), kept with the recording.
    ///   - notes: the recognizer's notes on the transcript (`SpeechRecognizer.notes`), kept as `Recording.notes`.
    /// - Throws: `LibraryError.alreadyInLibrary` when `imported` refuses duplicates and a recording
    ///   with its digest is in the library, checked under the same lock as the save (the draft is
    ///   removed); the store's errors otherwise.
    func saveDraft(
        _ draft: Draft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment], encoding: DraftAudioEncoding?,
        imported: ImportedAudio?, language: String?, vocabulary: [String], notes: [String]
    ) throws -> Recording

    /// Deletes the draft and its audio.
    func discardDraft(_ draft: Draft) throws
}

extension RecordingDraftStore {
    /// `createDraft` for a recording without a vocabulary.
    public func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription,
        name: String?, tags: [String], keepIfInterrupted: Bool
    ) throws -> Draft {
        try createDraft(id: id, createdAt: createdAt, language: language, audio: audio, name: name, tags: tags,
                        keepIfInterrupted: keepIfInterrupted, vocabulary: [])
    }

    /// `saveDraft` keeping the draft's language, with no vocabulary and no notes.
    public func saveDraft(
        _ draft: Draft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment], encoding: DraftAudioEncoding?,
        imported: ImportedAudio?
    ) throws -> Recording {
        try saveDraft(draft, name: name, tags: tags, location: location, durationSeconds: durationSeconds, segments: segments,
                      encoding: encoding, imported: imported, language: nil, vocabulary: [], notes: [])
    }
}
