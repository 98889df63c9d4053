import Foundation
import LiveTranscriberCore

/// What a draft means on disk: `drafts/<id>/` with `draft.json`, `journal.jsonl`, `lock` and the
/// audio. The core's `RecordingDraft` carries the folder's `FileLock` as its claim.
extension RecordingDraft {
    init(id: String, folder: URL, createdAt: Date, language: String, audio: AudioDescription, lock: FileLock?) {
        self.init(id: id, folder: folder, createdAt: createdAt, language: language, audio: audio, claim: lock)
    }

    /// The draft folder's lock, held while the draft is recorded.
    var lock: FileLock? { claim as? FileLock }
    /// `draft.json`.
    var manifestFile: URL { folder.appendingPathComponent(LibraryLayout.draftManifest) }
    /// `journal.jsonl`.
    var journalFile: URL { folder.appendingPathComponent(LibraryLayout.journal) }
}
