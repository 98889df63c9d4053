import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("LibraryStore recovery")
struct LibraryRecoveryTests {
    typealias F = LibraryFixtures

    /// Leaves a draft as a recorder killed mid-recording would: a WAV whose header still says 0
    /// bytes, three journaled segments and a last line torn in half. The draft value (and with it
    /// the lock) dies when this returns, as the kernel drops a dead process's flock.
    static func leaveCrashedDraft(in home: TemporaryDirectory, id: String = "20261129-204112-dead", pcmBytes: Int = 96_000) throws {
        let store = try F.store(home)
        let draft = try store.createDraft(id: id, createdAt: F.t0, language: "de-DE", audio: F.mono16k, name: "Interview", tags: ["press"])
        try WAVFixture.make(audio: WAVFixture.pcm(bytes: pcmBytes), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
        try store.appendToJournal(F.segment("zweites Segment", 1.5, 2.5), draft: draft)
        try store.appendToJournal(F.segment("erstes Segment", 0, 1.2), draft: draft)
        let journal = try FileHandle(forWritingTo: draft.folder.appendingPathComponent("journal.jsonl"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("{\"end\":3,\"start\":2.6,\"te".utf8))
        try journal.close()
    }

    @Test("a language given to the draft after it began (auto, identified on the first speech) and the vocabulary it began with are the recovered recording's")
    func recoveredDraftKeepsUpdatedLanguage() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            let draft = try store.createDraft(id: "20261129-204112-beef", createdAt: F.t0, language: "en-US", audio: F.mono16k,
                                              vocabulary: ["Dashwood", "Norland"])
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 32_000)).write(to: draft.audioFile)
            try store.updateLanguage("de", draft: draft)
            try store.appendToJournal(F.segment("Guten Morgen.", 0, 0.8), draft: draft)
        }
        let recovered = try F.store(home).recoverDrafts()
        #expect(recovered.map(\.language) == ["de"])
        #expect(recovered.map(\.vocabulary) == [["Dashwood", "Norland"]])
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
    }

    @Test("a crashed draft becomes a recovered recording with its journal, its name and tags, and the audio's duration")
    func recoverCrashedDraft() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try Self.leaveCrashedDraft(in: home)
        let store = try F.store(home)
        let recovered = try store.recoverDrafts()
        let expected = Recording(id: "20261129-204112-dead", name: "Interview", createdAt: F.t0, durationSeconds: 3.0,
                                 language: "de-DE", tags: ["press"], audio: F.mono16k, recovered: true,
                                 audioDigest: "sha256:a5fa3293d82ca3ae73a434caf615d76df7ce422d5239347990acdb23d424028d")
        #expect(recovered == [expected])
        #expect(try store.list() == [expected])
        #expect(try store.transcript(of: expected.id) == [F.segment("erstes Segment", 0, 1.2), F.segment("zweites Segment", 1.5, 2.5)])
        let folder = home.url.appendingPathComponent("recordings/\(expected.id)")
        #expect(F.files(in: folder) == ["audio.wav", "metadata.json", "transcript.json"])
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
        let audio = try Data(contentsOf: folder.appendingPathComponent("audio.wav"))
        #expect(audio == WAVFixture.make(audio: WAVFixture.pcm(bytes: 96_000)))
        #expect(try store.hits("zweites").map(\.startSeconds) == [1.5])
        #expect(try store.recoverDrafts() == [])
    }

    @Test("a draft.json naming another id, even a path out of the library, is recovered under its folder's name",
          arguments: ["../../evil", "20261129-000000-other"])
    func idComesFromTheFolder(manifestID: String) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try Self.leaveCrashedDraft(in: home)
        let manifest = home.url.appendingPathComponent("drafts/20261129-204112-dead/draft.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
        json["id"] = manifestID
        try JSONSerialization.data(withJSONObject: json).write(to: manifest)
        let recovered = try F.store(home).recoverDrafts()
        #expect(recovered.map(\.id) == ["20261129-204112-dead"])
        #expect(F.files(in: home.url.appendingPathComponent("recordings")) == ["20261129-204112-dead"])
        #expect(!FileManager.default.fileExists(atPath: home.url.deletingLastPathComponent().appendingPathComponent("evil").path))
    }

    @Test("the audio file, not draft.json, says the recovered audio's format, rate and channels")
    func audioFromTheFile() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try Self.leaveCrashedDraft(in: home)
        let folder = home.url.appendingPathComponent("drafts/20261129-204112-dead")
        // The recorder wrote 48 kHz stereo; draft.json (hand-edited, or damaged) claims 0 Hz FLAC.
        try WAVFixture.make(sampleRate: 48_000, channels: 2, audio: WAVFixture.pcm(bytes: 192_000), riffSize: 0, dataSize: 0)
            .write(to: folder.appendingPathComponent("audio.wav"))
        let manifest = folder.appendingPathComponent("draft.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
        json["audio"] = ["format": "flac", "sampleRate": 0, "channels": 0]
        try JSONSerialization.data(withJSONObject: json).write(to: manifest)
        let recovered = try #require(try F.store(home).recoverDrafts().first)
        #expect(recovered.audio == AudioDescription(format: "wav", sampleRate: 48_000, channels: 2))
        #expect(recovered.durationSeconds == 1.0)
    }

    @Test("without a name the recovered recording gets the default one")
    func recoveredDefaultName() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            let draft = try store.createDraft(id: "n", createdAt: F.t0, language: "en-US", audio: F.mono16k)
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 16_000), dataSize: 0xFFFF_FFFF).write(to: draft.audioFile)
        }
        let recovered = try F.store(home).recoverDrafts()
        #expect(recovered.map(\.name) == ["Recording 2026-11-29 20:41"])
        #expect(recovered.map(\.durationSeconds) == [0.5])
    }

    @Test("a draft whose lock is held by a live recorder is left alone")
    func liveDraftUntouched() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let recorder = try F.store(home)
        let draft = try recorder.createDraft(id: "live", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        try WAVFixture.make(audio: WAVFixture.pcm(bytes: 3_200), dataSize: 0).write(to: draft.audioFile)
        try recorder.appendToJournal(F.segment("still talking", 0, 1), draft: draft)
        let other = try F.store(home)
        #expect(try other.recoverDrafts() == [])
        #expect(F.files(in: draft.folder) == ["audio.wav", "draft.json", "journal.jsonl", "lock"])
        let saved = try recorder.saveDraft(draft, name: "Done", tags: [], location: nil, durationSeconds: 0.1, segments: [F.segment("still talking", 0, 1)])
        #expect(saved.recovered == false)
        #expect(try other.list().map(\.name) == ["Done"])
    }

    @Test("hasDraftsToRecover is false for no library, an empty drafts folder, a live draft and stray files; true for a crashed draft or a discard's remains")
    func draftsToRecoverCheck() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        #expect(LibraryStore.hasDraftsToRecover(in: home.url.appendingPathComponent("none")) == false)
        let recorder = try F.store(home)
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == false)
        let drafts = home.url.appendingPathComponent("drafts")
        try Data("x".utf8).write(to: drafts.appendingPathComponent(".DS_Store"))
        try Data("x".utf8).write(to: drafts.appendingPathComponent("a-file-not-a-folder"))
        let live = try recorder.createDraft(id: "live", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == false)
        #expect(F.files(in: live.folder) == ["draft.json", "lock"])  // its lock is still the recorder's
        try Self.leaveCrashedDraft(in: home)
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == true)
        _ = try F.store(home).recoverDrafts()
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == false)
        try FileManager.default.createDirectory(at: drafts.appendingPathComponent(".discard-gone"), withIntermediateDirectories: false)
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == true)
        _ = try F.store(home).recoverDrafts()
        #expect(LibraryStore.hasDraftsToRecover(in: home.url) == false)
        try recorder.discardDraft(live)
    }

    @Test("a draft locked by another process is skipped until that process is killed with SIGKILL")
    func lockHeldByChildProcess() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try Self.leaveCrashedDraft(in: home, id: "child")
        let lockFile = home.url.appendingPathComponent("drafts/child/lock")
        // One process that takes the lock, says so, and becomes `sleep` keeping the descriptor.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exec 9<>\"$0\"; flock -x 9; echo locked; exec sleep 30", lockFile.path]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        let line = output.fileHandleForReading.readData(ofLength: 7)
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
        let store = try F.store(home)
        #expect(try store.recoverDrafts() == [])
        #expect(try store.list() == [])
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(try store.recoverDrafts().map(\.id) == ["child"])
    }

    @Test("an empty draft (crash before any audio or segment) is removed, not recovered")
    func emptyDraftRemoved() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do { _ = try F.store(home).createDraft(id: "empty", createdAt: F.t0, language: "en-US", audio: F.mono16k) }
        #expect(try F.store(home).recoverDrafts() == [])
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
    }

    @Test("a crashed draft with less than 0.1 s of audio and no segment is removed; with 0.1 s it is recovered",
          arguments: [(3_198, false), (3_200, true)])
    func shortestDraftAudio(pcmBytes: Int, recovered: Bool) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let draft = try F.store(home).createDraft(id: "short", createdAt: F.t0, language: "en-US", audio: F.mono16k)
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: pcmBytes), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
        }
        #expect(try F.store(home).recoverDrafts().map(\.durationSeconds) == (recovered ? [0.1] : []))
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
    }

    @Test("a FLAC draft whose audio cannot be read takes its duration from the last journaled segment")
    func flacDurationFromJournal() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            let draft = try store.createDraft(id: "f", createdAt: F.t0, language: "en-US",
                                              audio: AudioDescription(format: "flac", sampleRate: 48_000, channels: 2))
            try Data("fLaC".utf8).write(to: draft.audioFile)
            try store.appendToJournal(F.segment("one", 0, 4.25), draft: draft)
        }
        let recovered = try F.store(home).recoverDrafts()
        #expect(recovered.map(\.durationSeconds) == [4.25])
        #expect(F.files(in: home.url.appendingPathComponent("recordings/f")) == ["audio.flac", "metadata.json", "transcript.json"])
    }

    @Test("a save interrupted after writing metadata is finished as saved, not marked recovered")
    func interruptedSave() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let recording = Recording(id: "half", name: "Half saved", createdAt: F.t0, durationSeconds: 2, language: "en-US", audio: F.mono16k)
        do {
            let store = try F.store(home)
            let draft = try store.createDraft(id: "half", createdAt: F.t0, language: "en-US", audio: F.mono16k)
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 64_000)).write(to: draft.audioFile)
            try JSONEncoder.liveTranscriber.encode([F.segment("kept", 0, 1)]).write(to: draft.folder.appendingPathComponent("transcript.json"))
            try JSONEncoder.liveTranscriber.encode(recording).write(to: draft.folder.appendingPathComponent("metadata.json"))
        }
        let store = try F.store(home)
        #expect(try store.recoverDrafts() == [recording])
        #expect(try store.transcript(of: "half") == [F.segment("kept", 0, 1)])
    }

    @Test("a draft folder without a readable draft.json is moved to trash/, never deleted")
    func unreadableDraftToTrash() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        _ = try F.store(home)
        let folder = home.url.appendingPathComponent("drafts/mystery")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: folder.appendingPathComponent("draft.json"))
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("audio.wav"))
        #expect(try F.store(home).recoverDrafts() == [])
        let trash = F.files(in: home.url.appendingPathComponent("trash"))
        #expect(trash.count == 1)
        #expect(trash.first?.hasPrefix("draft-mystery-") == true)
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
    }
}

@Suite("LibraryStore recovery problems")
struct LibraryRecoveryProblemTests {
    typealias F = LibraryFixtures

    @Test("a draft that cannot be recovered is left in place and reported; the others are recovered")
    func problemReported() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        do {
            let store = try F.store(home)
            for id in ["clash", "fine"] {
                let draft = try store.createDraft(id: id, createdAt: F.t0, language: "en-US", audio: F.mono16k)
                try WAVFixture.make(audio: WAVFixture.pcm(bytes: 3_200), dataSize: 0).write(to: draft.audioFile)  // 0.1 s
            }
        }
        // A saved recording with the same id as the draft "clash" (copied in by hand).
        let clash = home.url.appendingPathComponent("recordings/clash")
        try FileManager.default.createDirectory(at: clash, withIntermediateDirectories: true)
        let store = try F.store(home)
        #expect(try store.recoverDrafts().map(\.id) == ["fine"])
        #expect(store.recoveryProblems.mapValues(\.description) == ["clash": "a recording with id 'clash' already exists."])
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == ["clash"])
    }
}
