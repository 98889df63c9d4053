import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// M4A recordings in the real store: encoded on save beside the WAV draft, and what a crash at
/// each step leaves to recovery.
@Suite("LibraryStore: M4A recordings")
struct LibraryM4ATests {
    typealias F = LibraryFixtures
    static let id = "20261129-204112-aac0"

    /// A WAV draft of one second with one final segment, as the engine leaves it for an M4A recording.
    static func draft(_ store: LibraryStore) throws -> RecordingDraft {
        let draft = try store.createDraft(id: id, createdAt: F.t0, language: "en-US", audio: F.mono16k, name: "Walk", tags: [])
        try WAVFixture.make(audio: WAVFixture.pcm(bytes: 32_000)).write(to: draft.audioFile)
        try store.appendToJournal(F.segment("smaller files", 0, 0.8), draft: draft)
        return draft
    }

    @Test("saving with an encoding writes audio.m4a, removes the WAV draft, and the metadata and index say m4a")
    func savedEncoded() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let encoder = RecordingAudioEncoder()
        let draft = try Self.draft(store)
        let saved = try store.saveDraft(draft, name: "Walk", tags: [], location: nil, durationSeconds: 1,
                                        segments: [F.segment("smaller files", 0, 0.8)],
                                        encoding: DraftAudioEncoding(format: .m4a, encoder: encoder))
        #expect(saved.audio == AudioDescription(format: "m4a", sampleRate: 16_000, channels: 1))
        #expect(encoder.calls.map { [$0.source.lastPathComponent, $0.destination.lastPathComponent] } == [["audio.wav", ".audio.encoding.m4a"]])
        let folder = home.url.appendingPathComponent("recordings/\(Self.id)")
        #expect(F.files(in: folder) == ["audio.m4a", "metadata.json", "transcript.json"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("audio.m4a")) == Data("ftypM4A encoded audio".utf8))
        #expect(try store.audioFile(of: Self.id).lastPathComponent == "audio.m4a")
        #expect(try F.store(home).list().map(\.audio.format) == ["m4a"])
        try store.reindex()
        #expect(try store.list() == [saved])
    }

    @Test("an encode that fails leaves no partial file and saves the WAV")
    func failedEncodeSavesWAV() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let saved = try store.saveDraft(try Self.draft(store), name: nil, tags: [], location: nil, durationSeconds: 1, segments: [],
                                        encoding: DraftAudioEncoding(format: .m4a, encoder: RecordingAudioEncoder(fails: true)))
        #expect(saved.audio.format == "wav")
        #expect(F.files(in: home.url.appendingPathComponent("recordings/\(Self.id)")) == ["audio.wav", "metadata.json", "transcript.json"])
    }

    @Test("a draft is never created as M4A: it would not survive a crash")
    func noM4ADraft() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        #expect(throws: LibraryError.invalid("a draft cannot be recorded as 'm4a'; use wav, flac or opus (an M4A recording is recorded as WAV and encoded when it is saved).")) {
            try store.createDraft(id: Self.id, createdAt: F.t0, language: "en-US",
                                  audio: AudioDescription(format: "m4a", sampleRate: 48_000, channels: 2))
        }
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
    }

    @Test("a crash while encoding: recovery keeps the WAV and removes the unfinished and the finished-but-unsaved M4A")
    func crashWhileEncoding() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let draft = try Self.draft(try F.store(home))
            try Data("ftypM4A half".utf8).write(to: draft.folder.appendingPathComponent(".audio.encoding.m4a"))
            try Data("ftypM4A whole".utf8).write(to: draft.folder.appendingPathComponent("audio.m4a"))
        }  // the draft's lock goes with it, as with a killed process
        let store = try F.store(home)
        let recovered = try store.recoverDrafts()
        #expect(recovered.map(\.audio) == [AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)])
        #expect(recovered.map(\.durationSeconds) == [1])
        #expect(F.files(in: home.url.appendingPathComponent("recordings/\(Self.id)")) == ["audio.wav", "metadata.json", "transcript.json"])
        #expect(try store.transcript(of: Self.id).map(\.text) == ["smaller files"])
        #expect(try store.list().map(\.id) == [Self.id])
    }

    @Test("a crash after the metadata named the M4A, before the move: recovery finishes the save and drops the WAV")
    func crashAfterMetadata() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let expected = Recording(id: Self.id, name: "Walk", createdAt: F.t0, durationSeconds: 1, language: "en-US", tags: [],
                                 audio: AudioDescription(format: "m4a", sampleRate: 16_000, channels: 1))
        do {
            let draft = try Self.draft(try F.store(home))
            try Data("ftypM4A whole".utf8).write(to: draft.folder.appendingPathComponent("audio.m4a"))
            try JSONEncoder.liveTranscriber.encode([F.segment("smaller files", 0, 0.8)]).write(to: draft.folder.appendingPathComponent("transcript.json"))
            try JSONEncoder.liveTranscriber.encode(expected).write(to: draft.folder.appendingPathComponent("metadata.json"))
        }
        let store = try F.store(home)
        #expect(try store.recoverDrafts() == [expected])
        #expect(F.files(in: home.url.appendingPathComponent("recordings/\(Self.id)")) == ["audio.m4a", "metadata.json", "transcript.json"])
    }

    @Test("libsndfile's writer refuses M4A before creating any file")
    func sndFileWriterRefusesM4A() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.m4a")
        #expect(throws: AudioFormatUnsupported(format: "m4a", library: "libsndfile", kind: .write, alternatives: [.wav, .flac, .opus])) {
            _ = try SndFileWriter(path: file.path, format: AudioFormat(sampleRate: 48_000, channels: 2), fileFormat: .m4a)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
