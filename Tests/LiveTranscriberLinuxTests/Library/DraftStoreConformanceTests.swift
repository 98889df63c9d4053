import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The drafts contract every `RecordingDraftStore` keeps, run against the real store (folders and
/// SQLite in a temporary directory) and the in-memory fake, so the fake cannot drift.
@Suite("Draft store conformance")
struct DraftStoreConformanceTests {
    typealias F = LibraryFixtures

    /// Runs `body` against each implementation, naming it in failures.
    static func eachStore(_ body: (String, any DraftStoreUnderTest) throws -> Void) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try body("LibraryStore", try F.store(home))
        let memory = InMemoryRecordingStore()
        memory.timeZone = F.utc
        try body("InMemoryRecordingStore", memory)
    }

    @Test("a saved draft lists with its name, tags, duration and language, and its transcript in start order")
    func saveRoundTrip() throws {
        try Self.eachStore { name, store in
            let late = F.segment("second", 2, 3)
            let early = F.segment("first", 0, 1)
            let recording = try store.saveOne(id: "20261129-204112-0001", name: "  Standup  ", tags: ["work"],
                                              journal: [late, early], durationSeconds: 3.5)
            #expect(recording.name == "Standup", "\(name)")
            #expect(recording.tags == ["work"], "\(name)")
            #expect(recording.durationSeconds == 3.5, "\(name)")
            #expect(recording.language == "de-DE", "\(name)")
            #expect(recording.createdAt == F.t0, "\(name)")
            #expect(try store.list().map(\.id) == ["20261129-204112-0001"], "\(name)")
            #expect(try store.transcript(of: recording.id) == [early, late], "\(name)")
        }
    }

    @Test("a language given to a draft after it began is the one saved")
    func updatedLanguage() throws {
        try Self.eachStore { name, store in
            let recording = try store.saveOneRelabelled(id: "20261129-204112-0009", language: "de")
            #expect(recording.language == "de", "\(name)")
        }
    }

    @Test("a blank name gets the default name in the store's time zone")
    func defaultName() throws {
        try Self.eachStore { name, store in
            let recording = try store.saveOne(id: "20261129-204112-0002", name: " ", tags: [], journal: [], durationSeconds: 1)
            #expect(recording.name == "Recording 2026-11-29 20:41", "\(name)")
        }
    }

    @Test("a discarded draft leaves nothing in the library")
    func discard() throws {
        try Self.eachStore { name, store in
            try store.discardOne(id: "20261129-204112-0003")
            #expect(try store.list().isEmpty, "\(name)")
        }
    }

    @Test("a draft id already in use is refused")
    func duplicateID() throws {
        try Self.eachStore { name, store in
            try store.holdDraft(id: "20261129-204112-0004")
            #expect(throws: LibraryError.self, "\(name)") { try store.holdDraft(id: "20261129-204112-0004") }
        }
    }

    @Test("DraftAudioEncoding: saved as the encoded format when the encoder succeeds, as the draft's when it fails")
    func encodingOnSave() throws {
        try Self.eachStore { name, store in
            let encoded = try store.saveOneEncoded(id: "20261129-204112-0005", encoder: RecordingAudioEncoder())
            #expect(encoded.audio.format == "m4a", "\(name)")
            #expect(try store.audioFile(of: encoded.id).lastPathComponent == "audio.m4a", "\(name)")
            let kept = try store.saveOneEncoded(id: "20261129-204112-0006", encoder: RecordingAudioEncoder(fails: true))
            #expect(kept.audio.format == "wav", "\(name)")
            #expect(try store.audioFile(of: kept.id).lastPathComponent == "audio.wav", "\(name)")
        }
    }

    @Test("a draft is never created in a format encoded on save (M4A)")
    func noEncodedDraft() throws {
        try Self.eachStore { name, store in
            #expect(throws: LibraryError.self, "\(name)") { try store.holdDraft(id: "20261129-204112-0007", format: "m4a") }
        }
    }

    @Test("an import's save keeps the file's digest, refuses audio already in the library (its draft removed), and saves it again when asked")
    func importedAudio() throws {
        try Self.eachStore { name, store in
            let digest = "sha256:" + String(repeating: "ab", count: 32)
            let first = try store.saveOneImported(id: "20261129-204112-0008", imported: ImportedAudio(digest: digest, refusingDuplicates: true))
            #expect(first.audioDigest == digest, "\(name)")
            #expect(throws: LibraryError.alreadyInLibrary(id: "20261129-204112-0008", name: "Call"), "\(name)") {
                try store.saveOneImported(id: "20261129-204112-0009", imported: ImportedAudio(digest: digest, refusingDuplicates: true))
            }
            #expect(try store.list().map(\.id) == ["20261129-204112-0008"], "\(name)")
            let again = try store.saveOneImported(id: "20261129-204112-0010", imported: ImportedAudio(digest: digest, refusingDuplicates: false))
            #expect(again.audioDigest == digest, "\(name)")
            #expect(try store.recordings(withAudioDigest: digest).map(\.id) == ["20261129-204112-0010", "20261129-204112-0008"], "\(name)")
        }
    }

    @Test("a recording whose audio file is gone is named missing, and the save of the same audio says so when it refuses it")
    func missingAudio() throws {
        try Self.eachStore { name, store in
            let digest = "sha256:" + String(repeating: "cd", count: 32)
            let first = try store.saveOneImported(id: "20261129-204112-0011", imported: ImportedAudio(digest: digest, refusingDuplicates: true))
            #expect(!store.isAudioMissing(first.id), "\(name)")
            try store.removeSavedAudio(of: first.id)
            #expect(store.isAudioMissing(first.id), "\(name)")
            #expect(!store.isAudioMissing("20261129-204112-ffff"), "\(name)")
            #expect(throws: MissingAudioFile(id: first.id, name: "Call"), "\(name)") { try store.existingAudioFile(of: first) }
            #expect(throws: LibraryError.alreadyInLibrary(id: first.id, name: "Call", audioMissing: true), "\(name)") {
                try store.saveOneImported(id: "20261129-204112-0012", imported: ImportedAudio(digest: digest, refusingDuplicates: true))
            }
        }
    }

    @Test("new ids are yyyyMMdd-HHmmss-xxxx in UTC")
    func ids() throws {
        try Self.eachStore { name, store in
            let id = store.freshID(date: F.t0)
            #expect(id.hasPrefix("20261129-204112-") && id.count == 20, "\(name)")
        }
    }
}

/// The drafts API with its associated type erased, so one test body runs against every store.
protocol DraftStoreUnderTest: RecordingStore {
    func saveOne(id: String, name: String?, tags: [String], journal: [TranscriptSegment], durationSeconds: Double) throws -> Recording
    func discardOne(id: String) throws
    func saveOneRelabelled(id: String, language: String) throws -> Recording
    func holdDraft(id: String) throws
    func holdDraft(id: String, format: String) throws
    func saveOneEncoded(id: String, encoder: RecordingAudioEncoder) throws -> Recording
    func saveOneImported(id: String, imported: ImportedAudio) throws -> Recording
    func freshID(date: Date) -> String
    /// Removes saved recording `id`'s audio file, as a user deleting it by hand.
    func removeSavedAudio(of id: String) throws
}

extension DraftStoreUnderTest where Self: RecordingDraftStore {
    func saveOne(id: String, name: String?, tags: [String], journal: [TranscriptSegment], durationSeconds: Double) throws -> Recording {
        let draft = try createDraft(id: id, createdAt: LibraryFixtures.t0.addingTimeInterval(0.6), language: "de-DE",
                                    audio: LibraryFixtures.mono16k, name: nil, tags: [], keepIfInterrupted: true)
        if draft.audioFile.isFileURL, FileManager.default.fileExists(atPath: draft.audioFile.deletingLastPathComponent().path) {
            try WAVFixture.make(audio: WAVFixture.silence(bytes: Int(durationSeconds * 32_000))).write(to: draft.audioFile)
        }
        for segment in journal { try appendToJournal(segment, draft: draft) }
        return try saveDraft(draft, name: name, tags: tags, location: nil, durationSeconds: durationSeconds, segments: journal, encoding: nil,
                             imported: nil)
    }

    func saveOneRelabelled(id: String, language: String) throws -> Recording {
        let draft = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US", audio: LibraryFixtures.mono16k,
                                    name: nil, tags: [], keepIfInterrupted: true)
        if draft.audioFile.isFileURL, FileManager.default.fileExists(atPath: draft.audioFile.deletingLastPathComponent().path) {
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 32_000)).write(to: draft.audioFile)
        }
        try updateLanguage(language, draft: draft)
        return try saveDraft(draft, name: nil, tags: [], location: nil, durationSeconds: 1, segments: [], encoding: nil, imported: nil)
    }

    func discardOne(id: String) throws {
        let draft = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US", audio: LibraryFixtures.mono16k,
                                    name: nil, tags: [], keepIfInterrupted: true)
        try appendToJournal(LibraryFixtures.segment("gone", 0, 1), draft: draft)
        try discardDraft(draft)
    }

    func holdDraft(id: String) throws {
        _ = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US", audio: LibraryFixtures.mono16k,
                            name: nil, tags: [], keepIfInterrupted: true)
    }

    func holdDraft(id: String, format: String) throws {
        _ = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US",
                            audio: AudioDescription(format: StoredAudioFormat(rawValue: format), sampleRate: 48_000, channels: 2), name: nil, tags: [], keepIfInterrupted: true)
    }

    func saveOneEncoded(id: String, encoder: RecordingAudioEncoder) throws -> Recording {
        let draft = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US", audio: LibraryFixtures.mono16k,
                                    name: nil, tags: [], keepIfInterrupted: true)
        if draft.audioFile.isFileURL, FileManager.default.fileExists(atPath: draft.audioFile.deletingLastPathComponent().path) {
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 32_000)).write(to: draft.audioFile)
        }
        return try saveDraft(draft, name: nil, tags: [], location: nil, durationSeconds: 1, segments: [],
                             encoding: DraftAudioEncoding(format: .m4a, encoder: encoder), imported: nil)
    }

    /// An import's draft of 1 s of silence, saved as "Call" (not kept by a crash, as imports are not).
    func saveOneImported(id: String, imported: ImportedAudio) throws -> Recording {
        let draft = try createDraft(id: id, createdAt: LibraryFixtures.t0, language: "en-US", audio: LibraryFixtures.mono16k,
                                    name: nil, tags: [], keepIfInterrupted: false)
        if draft.audioFile.isFileURL, FileManager.default.fileExists(atPath: draft.audioFile.deletingLastPathComponent().path) {
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 32_000)).write(to: draft.audioFile)
        }
        return try saveDraft(draft, name: "Call", tags: [], location: nil, durationSeconds: 1, segments: [], encoding: nil,
                             imported: imported)
    }

    func freshID(date: Date) -> String { newRecordingID(date: date) }
}

extension LibraryStore: DraftStoreUnderTest {
    func removeSavedAudio(of id: String) throws { try FileManager.default.removeItem(at: try audioFile(of: id)) }
}
extension InMemoryRecordingStore: DraftStoreUnderTest {
    func removeSavedAudio(of id: String) throws { removeAudio(of: id) }
}
