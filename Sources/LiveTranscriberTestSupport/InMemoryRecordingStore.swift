import Foundation
import LiveTranscriberCore

/// A `RecordingStore` in memory, for command tests: recordings, transcripts, one previous transcript
/// per recording, and audio file URLs the test provides. Listing, search and changes are in
/// `InMemoryRecordingStore+Library.swift`, drafts in `+Drafts`; `RecordingStoreConformanceTests`
/// holds it to the same contract as `LibraryStore`.
public final class InMemoryRecordingStore: RecordingStore, @unchecked Sendable {
    private let lock = NSLock()
    var recordings: [Recording]
    var transcripts: [String: [TranscriptSegment]]
    var previous: [String: [TranscriptSegment]] = [:]
    /// The language each recording had with its previous transcript.
    var previousLanguages: [String: String] = [:]
    var previousVocabularies: [String: [String]] = [:]
    var previousSpeakers: [String: [Speaker]] = [:]
    var previousNotes: [String: [String]] = [:]
    var translations: [String: [TranscriptSegment]] = [:]
    var audio: [String: URL]
    /// Saved recordings whose audio file is gone (`removeAudio(of:)`).
    var missingAudio: Set<String> = []
    /// Recordings whose transcript cannot be read (`damageTranscript`).
    var unreadableTranscripts: Set<String> = []
    /// Saved recordings that cannot be read, by id, with why (see `damage(_:)`).
    var unreadable: [String: LibraryError] = [:]
    /// Drafts in progress, by id (see `InMemoryRecordingStore+Drafts.swift`).
    var drafts: [String: InMemoryDraftState] = [:]
    var draftsCreated = 0
    /// The time zone of default names.
    public var timeZone = TimeZone(identifier: "UTC")!
    /// When true, creating a draft and journaling fail as on a full disk.
    public var failDraftWrites = false
    /// Why the library cannot be changed (set by a test: read-only media, a full disk); nil by
    /// default. Only `writeBlock` says it; the changes themselves still succeed.
    public var writeBlock: LibraryWriteBlock?
    /// Every recording passed to `update`, in order.
    public private(set) var updates: [Recording] = []

    public init(recordings: [Recording] = [], transcripts: [String: [TranscriptSegment]] = [:], audio: [String: URL] = [:]) {
        self.recordings = recordings
        self.transcripts = transcripts
        self.audio = audio
    }

    public func resolve(_ reference: String) throws -> Recording {
        let all = try list()
        do {
            return try RecordingID.resolve(
                reference, latest: { all.first }, exact: { id in all.first { $0.id == id } },
                prefixed: { prefix in all.map(\.id).filter { $0.hasPrefix(prefix) }.sorted() })
        } catch LibraryError.notFound(let missing) where !RecordingID.isLatest(missing) {
            // As `LibraryStore` does: a reference naming one unreadable recording says why.
            let damaged = locked { unreadable }
            guard let id = UnreadableRecordingFolder.named(missing, among: all.map(\.id) + damaged.keys),
                  let problem = damaged[id] else { throw LibraryError.notFound(missing) }
            throw UnreadableRecordingFolder(id: id, problem: problem).resolveError
        }
    }

    /// Makes saved recording `id` unreadable, as a damaged metadata.json makes a folder of
    /// `LibraryStore` once reindexed: it leaves `list` and `search`, `resolve` refuses it with
    /// `.corrupt`, changes to it fail the same way, and `delete` still removes it by its id.
    /// - Throws: `LibraryError.notFound` for an id that names no saved recording.
    public func damage(_ id: String) throws {
        try locked {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            recordings.remove(at: index)
            unreadable[id] = .corrupt(path: "recordings/\(id)/metadata.json", reason: "The given data was not valid JSON.")
        }
    }

    public func unreadableFolders() throws -> [UnreadableRecordingFolder] {
        locked { unreadable.sorted { $0.key < $1.key }.map { UnreadableRecordingFolder(id: $0.key, problem: $0.value) } }
    }

    public func isUnreadableFolder(_ id: String) -> Bool {
        locked { unreadable[id] != nil }
    }

    /// Makes saved recording `id`'s transcript unreadable, as a damaged transcript.json makes
    /// one of `LibraryStore`: `transcript(of:)` throws `.corrupt` until a new transcript replaces it.
    public func damageTranscript(of id: String) {
        lock.withLock { _ = unreadableTranscripts.insert(id) }
    }

    public func transcript(of id: String) throws -> [TranscriptSegment] {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            if unreadableTranscripts.contains(id) {
                throw LibraryError.corrupt(path: "recordings/\(id)/transcript.json", reason: "The given data was not valid JSON.")
            }
            return transcripts[id] ?? []
        }
    }

    public func audioFile(of id: String) throws -> URL {
        try lock.withLock {
            guard let url = audio[id] else { throw LibraryError.notFound(id) }
            return url
        }
    }

    @discardableResult
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else {
                throw unreadable[id] ?? LibraryError.notFound(id)
            }
            change(&recordings[index])
            updates.append(recordings[index])
            return recordings[index]
        }
    }

    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?, vocabulary: [String]?,
                                  speakers: [Speaker]?, notes: [String]?, expected: ExpectedTranscript) throws {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            let damaged = unreadableTranscripts.contains(id)
            if !expected.matches(damaged ? nil : transcripts[id] ?? []) { throw LibraryError.changedMeanwhile(id: id) }
            // As `LibraryStore`: a damaged transcript is set aside, not kept as the previous one.
            if damaged {
                unreadableTranscripts.remove(id)
            } else {
                previous[id] = transcripts[id] ?? []
                previousLanguages[id] = recordings[index].language
                previousVocabularies[id] = recordings[index].vocabulary
                previousSpeakers[id] = recordings[index].speakers
                previousNotes[id] = recordings[index].notes
            }
            transcripts[id] = segments.sorted { $0.startSeconds < $1.startSeconds }
            if let language { recordings[index].language = language }
            if let vocabulary { recordings[index].vocabulary = vocabulary }
            if let speakers { recordings[index].speakers = speakers }
            if let notes { recordings[index].notes = notes }
        }
    }

    public func restorePreviousTranscript(of id: String) throws -> Bool {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            guard let kept = previous[id] else { return false }
            previous[id] = transcripts[id] ?? []
            transcripts[id] = kept
            if let language = previousLanguages[id] {
                previousLanguages[id] = recordings[index].language
                recordings[index].language = language
            }
            (previousVocabularies[id], recordings[index].vocabulary) = (recordings[index].vocabulary, previousVocabularies[id] ?? [])
            (previousSpeakers[id], recordings[index].speakers) = (recordings[index].speakers, previousSpeakers[id] ?? [])
            (previousNotes[id], recordings[index].notes) = (recordings[index].notes, previousNotes[id] ?? [])
            return true
        }
    }

    public func translation(of id: String) throws -> [TranscriptSegment]? {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            return translations[id]
        }
    }

    public func saveTranslation(of id: String, _ segments: [TranscriptSegment], language: String) throws {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else { throw unreadable[id] ?? LibraryError.notFound(id) }
            translations[id] = segments.sorted { $0.startSeconds < $1.startSeconds }
            recordings[index].translation = language
        }
    }

    public func isAudioMissing(_ id: String) -> Bool {
        lock.withLock { recordings.contains { $0.id == id } && missingAudio.contains(id) }
    }

    /// Makes recording `id`'s audio file gone, as a user deleting it by hand (`MissingAudioFile`).
    public func removeAudio(of id: String) {
        lock.withLock { _ = missingAudio.insert(id) }
    }

    /// Adds a saved recording (the drafts' save).
    func insert(_ recording: Recording, transcript: [TranscriptSegment], audioFile: URL) {
        recordings.append(recording)
        transcripts[recording.id] = transcript
        audio[recording.id] = audioFile
    }

    /// Runs `body` under the store's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    /// The transcript kept by the last replace, if any.
    public func previousTranscript(of id: String) -> [TranscriptSegment]? {
        lock.withLock { previous[id] }
    }
}
