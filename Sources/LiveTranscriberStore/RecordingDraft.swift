import Foundation
import LiveTranscriberCore

/// An in-progress recording: `drafts/<id>/` with `draft.json`, `journal.jsonl`, `lock` and the audio.
///
/// Returned by `LibraryStore.createDraft`; the recorder writes audio to `audioFile` and appends each
/// final segment with `LibraryStore.appendToJournal`. The draft's lock is held for as long as any
/// copy of this value lives (or until it is saved or discarded), so no other process recovers it.
public struct RecordingDraft: Sendable {
    public let id: String
    /// `drafts/<id>/`.
    public let folder: URL
    /// `drafts/<id>/audio.<format>`: the recorder creates and writes it.
    public let audioFile: URL
    public let createdAt: Date
    /// BCP 47 tag, such as "en-US".
    public let language: String
    public let audio: AudioDescription
    /// False when nothing of the draft may outlive a crash or a failed save (`record --discard`, an import).
    public let keepIfInterrupted: Bool
    /// Held while the draft is recorded.
    let lock: FileLock?

    init(id: String, folder: URL, createdAt: Date, language: String, audio: AudioDescription, lock: FileLock?,
         keepIfInterrupted: Bool = true) {
        self.keepIfInterrupted = keepIfInterrupted
        self.id = id
        self.folder = folder
        self.audioFile = folder.appendingPathComponent(LibraryLayout.audio(audio.format))
        self.createdAt = createdAt
        self.language = language
        self.audio = audio
        self.lock = lock
    }

    /// `draft.json`.
    var manifestFile: URL { folder.appendingPathComponent(LibraryLayout.draftManifest) }
    /// `journal.jsonl`.
    var journalFile: URL { folder.appendingPathComponent(LibraryLayout.journal) }
}

extension RecordingDraft: RecordingDraftHandle {}
