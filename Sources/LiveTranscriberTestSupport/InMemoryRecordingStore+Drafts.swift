import Foundation
import LiveTranscriberCore

/// A draft of `InMemoryRecordingStore`: its id and the audio file URL the recorder writes to.
public struct InMemoryDraft: RecordingDraftHandle {
    public let id: String
    public let audioFile: URL
}

/// What the in-memory store keeps of a draft until it is saved or discarded.
struct InMemoryDraftState {
    var createdAt: Date
    var language: String
    var audio: AudioDescription
    var name: String?
    var tags: [String]
    var journal: [TranscriptSegment] = []
}

/// A journal or draft write the test made fail (a full disk, say).
public struct InMemoryWriteFailure: Error, Equatable, CustomStringConvertible {
    public var description: String { "no space left on device (simulated)" }
}

extension InMemoryRecordingStore: RecordingDraftStore {
    public func newRecordingID(date: Date) -> String {
        // Deterministic for tests: the suffix counts the drafts created so far.
        RecordingID.make(date: date, suffix: locked { draftsCreated += 1; return String(format: "%04x", draftsCreated) })
    }

    public func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription, name: String?, tags: [String],
        keepIfInterrupted: Bool = true, vocabulary: [String] = []
    ) throws -> InMemoryDraft {
        // The real store's rule: a draft is written only in a format a crash leaves readable.
        guard let format = audio.format.known, !format.isEncodedOnSave else {
            throw LibraryError.invalid("a draft cannot be recorded as '\(audio.format)'.")
        }
        try locked {
            if failDraftWrites { throw InMemoryWriteFailure() }
            guard drafts[id] == nil else { throw LibraryError.invalid("a draft with id '\(id)' already exists.") }
            drafts[id] = InMemoryDraftState(createdAt: Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down)),
                                            language: language, audio: audio, name: name, tags: tags)
        }
        return InMemoryDraft(id: id, audioFile: URL(fileURLWithPath: "/memory/drafts/\(id)/audio.\(audio.format)"))
    }

    public func updateLanguage(_ language: String, draft: InMemoryDraft) throws {
        try locked {
            if failDraftWrites { throw InMemoryWriteFailure() }
            drafts[draft.id]?.language = language
        }
    }

    public func appendToJournal(_ segment: TranscriptSegment, draft: InMemoryDraft) throws {
        try locked {
            if failDraftWrites { throw InMemoryWriteFailure() }
            drafts[draft.id]?.journal.append(segment)
        }
    }

    public func saveDraft(
        _ draft: InMemoryDraft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment], encoding: DraftAudioEncoding? = nil,
        imported: ImportedAudio? = nil, language: String? = nil, vocabulary: [String] = [], notes: [String] = []
    ) throws -> Recording {
        // `DraftAudioEncoding`'s rule: encode first (outside the store's lock, as it takes time);
        // a failed encode keeps the draft's format.
        var audioFile = draft.audioFile
        var encodedFormat: StoredAudioFormat?
        if let encoding, locked({ drafts[draft.id] != nil }) {
            let destination = draft.audioFile.deletingPathExtension().appendingPathExtension(encoding.format.fileExtension)
            if (try? encoding.encoder.encode(draft.audioFile, to: destination, as: encoding.format)) != nil {
                audioFile = destination
                encodedFormat = StoredAudioFormat(encoding.format)
            }
        }
        return try locked {
            guard var state = drafts.removeValue(forKey: draft.id) else { throw LibraryError.notFound(draft.id) }
            // Checked under the same lock as the save, as the real store does under its write lock.
            if let imported, imported.refusingDuplicates,
               let existing = Self.newestFirst(recordings.filter { $0.audioDigest == imported.digest }).first {
                throw LibraryError.alreadyInLibrary(id: existing.id, name: existing.name, audioMissing: missingAudio.contains(existing.id))
            }
            if let encodedFormat { state.audio.format = encodedFormat }
            // The name and tag rules the real store applies on save (RecordingName, RecordingTags).
            let recording = Recording(
                id: draft.id,
                name: RecordingName.cleaned(name ?? "", fallback: RecordingName.defaultName(createdAt: state.createdAt, timeZone: timeZone)),
                createdAt: state.createdAt, durationSeconds: durationSeconds, language: language ?? state.language,
                tags: RecordingTags.cleaned(tags), audio: state.audio, location: location, audioDigest: imported?.digest,
                vocabulary: vocabulary, notes: notes)
            insert(recording, transcript: segments.sorted { $0.startSeconds < $1.startSeconds }, audioFile: audioFile)
            return recording
        }
    }

    public func discardDraft(_ draft: InMemoryDraft) throws {
        _ = locked { drafts.removeValue(forKey: draft.id) }
    }

    /// The final segments journaled for a draft still in progress (what a crash would keep).
    public func journal(of id: String) -> [TranscriptSegment]? {
        locked { drafts[id]?.journal }
    }

    /// Ids of drafts neither saved nor discarded.
    public var draftIDs: [String] {
        locked { drafts.keys.sorted() }
    }
}
