import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The re-transcription use case every front end calls (`retranscribe`, `record`'s second pass,
/// `serve`'s job, the iPhone's OpenAI path), run against the SQLite library and the in-memory
/// store alike, so the fake cannot drift from the real thing.
@Suite("Re-transcription use case, on both stores")
struct RecordingRetranscriptionTests {
    typealias Kind = RecordingStoreConformanceTests.Kind

    /// A fresh store of `kind` with recording "r1" saved ("live words", language en-US), its
    /// audio file there, and a way to damage its transcript.json.
    static func with(_ kind: Kind, _ body: (any RecordingStore, _ damageTranscript: () throws -> Void) throws -> Void) throws {
        try RecordingStoreConformanceTests.with(kind) { store, save in
            try save("r1", at: 0, name: "Standup", tags: [], ["live words"])
            let audio = try store.audioFile(of: "r1")
            if FileManager.default.fileExists(atPath: audio.deletingLastPathComponent().path) {  // the library's folder; the fake has none
                try Data("RIFF".utf8).write(to: audio)
            }
            try body(store) {
                if let memory = store as? InMemoryRecordingStore {
                    memory.damageTranscript(of: "r1")
                } else {
                    try Data("{garbage\n".utf8).write(to: audio.deletingLastPathComponent().appendingPathComponent("transcript.json"))
                }
            }
        }
    }

    static let refined = [TranscriptSegment(text: "refined words", startSeconds: 0, endSeconds: 4)]

    @Test("saves the new transcript with its language and vocabulary, and keeps the one it replaced as the previous", arguments: Kind.allCases)
    func saves(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let job = try RecordingRetranscription("r1", in: store)
            #expect(job.currentSegments?.map(\.text) == ["live words"])
            var given: URL?
            let outcome = try job.run(in: store, reads: .libsndfile) { audio in
                given = audio
                return NewTranscript(segments: Self.refined, language: "de", vocabulary: ["Norland"])
            }
            #expect(given == (try store.audioFile(of: "r1")))
            let saved = try outcome.saved()
            #expect(saved.segments == Self.refined)
            #expect(saved.recording.language == "de")
            #expect(saved.recording.vocabulary == ["Norland"])
            #expect(outcome == .saved(saved, repaired: nil))
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["live words"])
            #expect(try store.resolve("r1").language == "en-US")
        }
    }

    @Test("the new transcript's notes replace the recording's: a dropped invented phrase is noted, and a transcript without one clears it", arguments: Kind.allCases)
    func notes(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let note = InventedPhrases.note("Thank you for watching.", startSeconds: 3.2)
            #expect(note == "Dropped “Thank you for watching.” at 0:03: a phrase Whisper is known to invent, decoded with little confidence.")
            let noted = try RecordingRetranscription("r1", in: store).run(in: store, reads: .libsndfile) { _ in
                NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil, notes: [note])
            }
            #expect(try noted.saved().recording.notes == [note])
            #expect(try store.resolve("r1").notes == [note])
            let clean = try RecordingRetranscription("r1", in: store).run(in: store, reads: .libsndfile) { _ in
                NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
            }
            #expect(try clean.saved().recording.notes == [])
        }
    }

    @Test("a transcript another command saved while this one ran is kept: changedMeanwhile, nothing saved", arguments: Kind.allCases)
    func changedMeanwhile(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let job = try RecordingRetranscription("r1", in: store)
            let outcome = try job.run(in: store, reads: .libsndfile) { _ in
                try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "other words", startSeconds: 0, endSeconds: 4)])
                return NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
            }
            #expect(outcome == .changedMeanwhile(job.recording))
            #expect(try store.transcript(of: "r1").map(\.text) == ["other words"])
            #expect(throws: RetranscriptionError.notSaved(reason: outcome.notSavedReason!)) { try outcome.saved() }
            #expect(outcome.notSavedReason == "the transcript of r1 was replaced by another command while this one was transcribing it; "
                    + "the new transcript was not saved, and the one there now is kept (run this again to replace it)")
        }
    }

    @Test("a recording deleted while it was transcribed: deletedMeanwhile, nothing saved", arguments: Kind.allCases)
    func deletedMeanwhile(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let job = try RecordingRetranscription("r1", in: store)
            let outcome = try job.run(in: store, reads: .libsndfile) { _ in
                try store.delete("r1", purge: true)
                return NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
            }
            #expect(outcome == .deletedMeanwhile(job.recording))
            #expect(outcome.notSavedReason == "'Standup' (r1) was deleted while it was being transcribed again; the new transcript was not saved")
            #expect(throws: LibraryError.notFound("r1")) { try store.resolve("r1") }
        }
    }

    @Test("a damaged transcript is found, repaired by the new one and reported, not kept as the previous", arguments: Kind.allCases)
    func repairsDamage(kind: Kind) throws {
        try Self.with(kind) { store, damageTranscript in
            try damageTranscript()
            let job = try RecordingRetranscription("r1", in: store)
            #expect(job.expected == .unreadable)
            #expect(job.currentSegments == nil)
            let damage = try #require(job.damage)
            #expect(damage.path.hasSuffix("recordings/r1/transcript.json"))
            let outcome = try job.run(in: store, reads: .libsndfile) { _ in
                NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
            }
            #expect(outcome == .saved(RecordingWithTranscript(recording: try store.resolve("r1"), segments: Self.refined), repaired: damage))
            #expect(try store.transcript(of: "r1") == Self.refined)
            #expect(try !store.restorePreviousTranscript(of: "r1"))
        }
    }

    @Test("a damaged transcript repaired by another command meanwhile is kept", arguments: Kind.allCases)
    func damageRepairedMeanwhile(kind: Kind) throws {
        try Self.with(kind) { store, damageTranscript in
            try damageTranscript()
            let job = try RecordingRetranscription("r1", in: store)
            let outcome = try job.run(in: store, reads: .libsndfile) { _ in
                try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "other words", startSeconds: 0, endSeconds: 4)])
                return NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
            }
            #expect(outcome == .changedMeanwhile(job.recording))
            #expect(try store.transcript(of: "r1").map(\.text) == ["other words"])
        }
    }

    @Test("no text, missing audio and audio this platform cannot read change nothing; the last two never reach the transcriber",
          arguments: Kind.allCases)
    func refusals(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let job = try RecordingRetranscription("r1", in: store)
            #expect(throws: RetranscriptionError.noText(recordingName: "Standup")) {
                try job.run(in: store, reads: .libsndfile) { _ in NewTranscript(segments: [], language: "en-US", vocabulary: nil) }
            }
            var called = false
            #expect(throws: AudioFormatUnsupported.self) {
                try job.run(in: store, reads: AudioFormatSupport(library: "test", writes: [], reads: [.flac])) { _ in
                    called = true
                    return NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
                }
            }
            if let memory = store as? InMemoryRecordingStore {
                memory.removeAudio(of: "r1")
            } else {
                try FileManager.default.removeItem(at: try store.audioFile(of: "r1"))
            }
            #expect(throws: MissingAudioFile(id: "r1", name: "Standup")) {
                try job.run(in: store, reads: .libsndfile) { _ in
                    called = true
                    return NewTranscript(segments: Self.refined, language: "en-US", vocabulary: nil)
                }
            }
            #expect(!called)
            #expect(try store.transcript(of: "r1").map(\.text) == ["live words"])
            #expect(try !store.restorePreviousTranscript(of: "r1"))
        }
    }

    @Test("a library that cannot be changed is refused before anything is read or transcribed")
    func readOnly() throws {
        let store = InMemoryRecordingStore(recordings: [Recording(id: "r1", name: "Standup", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 4,
                                                                  language: "en-US", audio: RecordingStoreConformanceTests.mono)])
        store.writeBlock = .readOnly(path: "/lib", media: true)
        #expect(throws: LibraryError.readOnly(.readOnly(path: "/lib", media: true))) { try RecordingRetranscription("r1", in: store) }
    }

    @Test("deleted meanwhile: the store saying its folder is gone counts even while the index still finds it (a delete moves the folder first)")
    func goneByTheStoresWord() throws {
        let store = InMemoryRecordingStore(recordings: [Recording(id: "r1", name: "Standup", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 4,
                                                                  language: "en-US", audio: RecordingStoreConformanceTests.mono)])
        let recording = try store.resolve("r1")
        #expect(RecordingRetranscription.isGone(recording, after: LibraryError.notFound("r1"), in: store))
        #expect(RecordingRetranscription.isGone(recording, after: LibraryError.notFound("r1"), in: nil))
        #expect(!RecordingRetranscription.isGone(recording, after: LibraryError.notFound("another"), in: store))
        #expect(!RecordingRetranscription.isGone(recording, after: LibraryError.invalid("x"), in: store))
        #expect(!RecordingRetranscription.isGone(recording, after: CocoaError(.fileReadNoSuchFile), in: store))
        try store.delete("r1", purge: true)
        #expect(RecordingRetranscription.isGone(recording, after: LibraryError.invalid("x"), in: store))
    }
}
