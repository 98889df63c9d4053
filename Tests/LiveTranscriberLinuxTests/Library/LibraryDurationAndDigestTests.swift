import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberStore

@Suite("LibraryStore durations and audio digests")
struct LibraryDurationAndDigestTests {
    typealias F = LibraryFixtures

    /// The digest of 3 s of 16 kHz mono silence (`AudioDigest`).
    static let threeSecondsOfSilence = "sha256:9f0fec4db0cdbb8527017fbe5ffe87d0f8adb8c7ca6413a8590d5a9ad2407482"

    /// Writes `metadata.json` of recording `id` with `durationSeconds` as an older version could have.
    static func writeStoredDuration(_ seconds: Double, of id: String, in home: TemporaryDirectory) throws -> Recording {
        let file = home.url.appendingPathComponent("recordings/\(id)/metadata.json")
        var recording = try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: file))
        recording.durationSeconds = seconds
        try JSONEncoder.liveTranscriber.encode(recording).write(to: file)
        return recording
    }

    static func storedDuration(of id: String, in home: TemporaryDirectory) throws -> Double {
        let file = home.url.appendingPathComponent("recordings/\(id)/metadata.json")
        return try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: file)).durationSeconds
    }

    @Test("a saved recording keeps the digest of the audio file as written, and is found by it")
    func savedDigest() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let saved = try F.save(store, id: "a", name: "Standup", seconds: 3)
        #expect(saved.audioDigest == Self.threeSecondsOfSilence)
        #expect(try AudioDigest.of(path: home.url.appendingPathComponent("recordings/a/audio.wav").path) == Self.threeSecondsOfSilence)
        #expect(try store.recordings(withAudioDigest: Self.threeSecondsOfSilence).map(\.id) == ["a"])
    }

    @Test("two imports of one file at once save it once: the second to save is refused under the write lock, its draft removed, and the first keeps the file's digest")
    func concurrentImportsSaveOnce() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let digest = "sha256:00ff"  // the imported file's digest (its saved audio's is another)
        let first = try F.store(home), second = try F.store(home)
        /// An import's draft, written as far as saving: 3 s of silence.
        func importDraft(_ store: LibraryStore, id: String) throws -> RecordingDraft {
            let draft = try store.createDraft(id: id, createdAt: F.t0, language: "en-US", audio: F.mono16k,
                                              name: nil, tags: [], keepIfInterrupted: false)
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 96_000)).write(to: draft.audioFile)
            return draft
        }
        // Both got past the check made before transcribing: neither had saved yet.
        let late = try importDraft(second, id: "20261129-204112-bbbb")
        let early = try importDraft(first, id: "20261129-204112-aaaa")
        let saved = try first.saveDraft(early, name: "Call", tags: [], location: nil, durationSeconds: 3, segments: [],
                                        imported: ImportedAudio(digest: digest, refusingDuplicates: true))
        #expect(saved.audioDigest == digest)
        #expect(throws: LibraryError.alreadyInLibrary(id: "20261129-204112-aaaa", name: "Call")) {
            try second.saveDraft(late, name: "Call", tags: [], location: nil, durationSeconds: 3, segments: [],
                                 imported: ImportedAudio(digest: digest, refusingDuplicates: true))
        }
        #expect(try second.list().map(\.id) == ["20261129-204112-aaaa"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.url.appendingPathComponent("drafts").path).isEmpty)
        // --again: saved, with the file's digest too.
        let again = try importDraft(second, id: "20261129-204112-cccc")
        let twice = try second.saveDraft(again, name: "Call", tags: [], location: nil, durationSeconds: 3, segments: [],
                                         imported: ImportedAudio(digest: digest, refusingDuplicates: false))
        #expect(twice.audioDigest == digest)
        #expect(try second.recordings(withAudioDigest: digest).map(\.id) == ["20261129-204112-cccc", "20261129-204112-aaaa"])
        // Not an import: a save keeps the digest of its own audio.
        #expect(try F.save(second, id: "d", seconds: 3).audioDigest == Self.threeSecondsOfSilence)
    }

    @Test("a recovered draft gets the digest of its audio, and its draft.json name loses escape sequences")
    func recoveredDigestAndName() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            let draft = try store.createDraft(id: "20261129-204112-dead", createdAt: F.t0, language: "en-US", audio: F.mono16k,
                                              name: "Call\u{1B}[31m with Ann", tags: ["a\u{1B}]0;x\u{7}b"])
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 96_000), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
        }  // the draft's lock goes with it, as a killed recorder's does
        let recovered = try #require(try F.store(home).recoverDrafts().first)
        #expect(recovered.audioDigest == Self.threeSecondsOfSilence)
        #expect(recovered.name == "Call with Ann")
        #expect(recovered.tags == ["a b"])
        #expect(recovered.durationSeconds == 3)
    }

    @Test("reindex corrects a duration longer than the audio file states, in the index and in metadata.json")
    func reindexCorrectsDurations() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "a", name: "Absurd", seconds: 3)
        try F.save(store, id: "b", createdAt: F.t0.addingTimeInterval(5), name: "Fine", seconds: 2)
        _ = try Self.writeStoredDuration(86_400, of: "a", in: home)
        _ = try Self.writeStoredDuration(1.5, of: "b", in: home)  // shorter than its audio: not absurd, kept
        #expect(try store.reindex() == LibraryStore.ReindexResult(indexed: 2, unreadable: []))
        #expect(try store.list().map(\.durationSeconds) == [1.5, 3])
        #expect(try Self.storedDuration(of: "a", in: home) == 3)
        #expect(try Self.storedDuration(of: "b", in: home) == 1.5)
    }

    @Test("reading a recording corrects a duration its metadata and index held from before the rule")
    func readCorrectsDurations() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "a", name: "Absurd", seconds: 3)
        let old = try Self.writeStoredDuration(86_400, of: "a", in: home)
        try store.keeper.current.upsert(old, segments: [])  // the index an older version wrote
        #expect(try store.list().map(\.durationSeconds) == [86_400])  // list reads the index only
        #expect(try store.resolve("a").durationSeconds == 3)
        #expect(try store.list().map(\.durationSeconds) == [3])
        #expect(try Self.storedDuration(of: "a", in: home) == 3)
    }

    @Test("opening a library whose index is in step reads no recording folder, so start-up corrects nothing")
    func startUpReadsNoFolder() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            try F.save(store, id: "a", name: "Absurd", seconds: 3)
            let old = try Self.writeStoredDuration(86_400, of: "a", in: home)
            try store.keeper.current.upsert(old, segments: [])
        }
        let reopened = try F.store(home)
        #expect(try reopened.list().map(\.durationSeconds) == [86_400])
        #expect(try Self.storedDuration(of: "a", in: home) == 86_400)
    }
}
