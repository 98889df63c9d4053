import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("LibraryStore")
struct LibraryStoreTests {
    typealias F = LibraryFixtures

    @Test("createDraft makes drafts/<id>/ with draft.json and a lock holding our pid")
    func createDraftLayout() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let draft = try store.createDraft(id: "20261129-204112-3f9a", createdAt: F.t0.addingTimeInterval(0.75), language: "en-US",
                                          audio: F.mono16k, name: "Standup", tags: ["work", " work", "team"])
        #expect(draft.folder.path == home.url.appendingPathComponent("drafts/20261129-204112-3f9a").path)
        #expect(draft.audioFile.lastPathComponent == "audio.wav")
        #expect(draft.createdAt == F.t0)
        #expect(F.files(in: draft.folder) == ["draft.json", "lock"])
        let lock = try String(contentsOf: draft.folder.appendingPathComponent("lock"), encoding: .utf8)
        #expect(lock == "\(getpid())\n")
        let manifest = try String(contentsOf: draft.folder.appendingPathComponent("draft.json"), encoding: .utf8)
        #expect(manifest == """
            {
              "audio" : {
                "channels" : 1,
                "format" : "wav",
                "sampleRate" : 16000
              },
              "createdAt" : "2026-11-29T20:41:12Z",
              "id" : "20261129-204112-3f9a",
              "language" : "en-US",
              "name" : "Standup",
              "tags" : [
                "work",
                "team"
              ]
            }
            """)
    }

    @Test("the audio file's extension follows the format", arguments: ["wav", "flac", "opus"])
    func audioExtension(format: String) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let draft = try F.store(home).createDraft(id: "a-\(format)", createdAt: F.t0, language: "en-US",
                                                   audio: AudioDescription(format: StoredAudioFormat(rawValue: format), sampleRate: 48_000, channels: 2))
        #expect(draft.audioFile.lastPathComponent == "audio.\(format)")
    }

    @Test("bad ids and formats are refused with a sentence",
          arguments: [("", "wav", "'' cannot be a recording id."), ("../x", "wav", "'../x' cannot be a recording id."),
                      (".hidden", "wav", "'.hidden' cannot be a recording id."),
                      ("ok", "mp3", "unknown audio format 'mp3'; use wav, flac or opus.")])
    func badDrafts(id: String, format: String, message: String) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        #expect(throws: LibraryError.invalid(message)) {
            try store.createDraft(id: id, createdAt: F.t0, language: "en-US", audio: AudioDescription(format: StoredAudioFormat(rawValue: format), sampleRate: 16_000, channels: 1))
        }
    }

    @Test("a taken id is refused, as a draft and as a saved recording")
    func takenID() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let draft = try store.createDraft(id: "x1", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        #expect(throws: LibraryError.invalid("a draft with id 'x1' already exists.")) {
            try store.createDraft(id: "x1", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        }
        _ = try store.saveDraft(draft, name: nil, tags: [], location: nil, durationSeconds: 0, segments: [])
        #expect(throws: LibraryError.invalid("a recording with id 'x1' already exists.")) {
            try store.createDraft(id: "x1", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        }
    }

    @Test("appendToJournal writes one JSON segment per line")
    func journal() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let draft = try store.createDraft(id: "j", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        try store.appendToJournal(F.segment("hello there", 0.5, 1.25), draft: draft)
        try store.appendToJournal(TranscriptSegment(text: "a/b \"q\"\nnext", startSeconds: 2, endSeconds: 3,
                                                    words: [WordTiming(word: "a", startSeconds: 2, endSeconds: 2.5)]), draft: draft)
        let text = try String(contentsOf: draft.folder.appendingPathComponent("journal.jsonl"), encoding: .utf8)
        #expect(text == """
            {"end":1.25,"start":0.5,"text":"hello there","words":[]}
            {"end":3,"start":2,"text":"a/b \\"q\\"\\nnext","words":[{"end":2.5,"start":2,"word":"a"}]}

            """)
    }

    @Test("saveDraft moves the folder into recordings/ with audio, transcript and metadata, and nothing else")
    func saveLayout() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let segments = [F.segment("second", 2, 3), F.segment("first", 0, 1)]
        let recording = try F.save(store, id: "20261129-204112-3f9a", tags: ["b", "a", "b", ""], segments: segments, seconds: 3)
        #expect(recording == Recording(id: "20261129-204112-3f9a", name: "Recording 2026-11-29 20:41", createdAt: F.t0,
                                       durationSeconds: 3, language: "en-US", tags: ["b", "a"], audio: F.mono16k,
                                       audioDigest: LibraryDurationAndDigestTests.threeSecondsOfSilence))
        let folder = home.url.appendingPathComponent("recordings/20261129-204112-3f9a")
        #expect(F.files(in: folder) == ["audio.wav", "metadata.json", "transcript.json"])
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
        #expect(F.files(in: home.url).filter { !$0.hasPrefix("library.sqlite") } == ["drafts", "library.generation", "library.lock", "recordings", "trash"])
        let metadata = try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: folder.appendingPathComponent("metadata.json")))
        #expect(metadata == recording)
        #expect(try store.transcript(of: recording.id) == [F.segment("first", 0, 1), F.segment("second", 2, 3)])
        #expect(try store.audioFile(of: recording.id) == folder.appendingPathComponent("audio.wav"))
        #expect(try store.list() == [recording])
        let metadataText = try String(contentsOf: folder.appendingPathComponent("metadata.json"), encoding: .utf8)
        #expect(metadataText.contains("\"duration\" : 3"))
        #expect(metadataText.contains("\"summary\" : null"))
    }

    @Test("a given name is trimmed; a blank one gets the default")
    func names() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        #expect(try F.save(store, id: "n1", name: "  Standup  ").name == "Standup")
        #expect(try F.save(store, id: "n2", name: "   ").name == "Recording 2026-11-29 20:41")
    }

    @Test("discardDraft removes the draft, its audio and journal completely")
    func discard() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let draft = try store.createDraft(id: "d", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        try WAVFixture.make(audio: WAVFixture.pcm(bytes: 100)).write(to: draft.audioFile)
        try store.appendToJournal(F.segment("gone", 0, 1), draft: draft)
        try store.discardDraft(draft)
        #expect(F.files(in: home.url.appendingPathComponent("drafts")) == [])
        #expect(try store.list() == [])
        #expect(try store.recoverDrafts() == [])
    }

    @Test("list is newest first; resolve takes an id, a unique prefix or latest")
    func listAndResolve() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let old = try F.save(store, id: "20261128-090000-aaaa", createdAt: F.t0.addingTimeInterval(-86_400))
        let new = try F.save(store, id: "20261129-204112-bbbb", createdAt: F.t0)
        let newer = try F.save(store, id: "20261129-204112-bccc", createdAt: F.t0.addingTimeInterval(60))
        #expect(try store.list().map(\.id) == [newer.id, new.id, old.id])
        #expect(try store.resolve("latest") == newer)
        #expect(try store.resolve("20261128") == old)
        #expect(try store.resolve(new.id) == new)
        #expect(throws: LibraryError.ambiguous("20261129-204112-b", matches: [new.id, newer.id])) { try store.resolve("20261129-204112-b") }
        #expect(throws: LibraryError.notFound("nope")) { try store.resolve("nope") }
        #expect(throws: LibraryError.notFound("")) { try store.resolve("") }
    }

    @Test("latest in an empty library is not found")
    func latestEmpty() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        #expect(throws: LibraryError.notFound("latest")) { try F.store(home).resolve("latest") }
    }

    @Test("rename and setTags rewrite metadata.json and the index; bad names are refused")
    func renameAndTags() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let recording = try F.save(store, id: "r1", name: "Old")
        let renamed = try store.rename("r1", to: " Quarterly plan ")
        #expect(renamed.name == "Quarterly plan")
        let tagged = try store.setTags("r1", ["x", " y ", "x", ""])
        #expect(tagged.tags == ["x", "y"])
        var expected = recording
        expected.name = "Quarterly plan"
        expected.tags = ["x", "y"]
        #expect(try store.list() == [expected])
        #expect(try F.store(home).list() == [expected])
        #expect(throws: LibraryError.invalid("a recording's name cannot be empty.")) { try store.rename("r1", to: "  ") }
        #expect(throws: LibraryError.notFound("zz")) { try store.rename("zz", to: "A") }
        #expect(try store.hits("quarterly").map(\.recordingID) == ["r1"])
        #expect(try store.hits("old") == [])
    }

    @Test("a change removes the temporary generation files of killed processes and keeps those of running ones")
    func abandonedTemporaries() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "r1", name: "Old")
        // No process has pid 999999999 (Linux caps pids at 4194304); pid 1 always runs.
        let abandoned = [".library.generation.tmp-999999999-17", ".library.generation.tmp-999999998-3"]
        let running = ".library.generation.tmp-1-5"
        for name in abandoned + [running, ".metadata.json.tmp-999999999-1"] {
            try Data("7\n".utf8).write(to: home.url.appendingPathComponent(name))
        }
        _ = try store.rename("r1", to: "New")
        let left = F.files(in: home.url).filter { $0.contains(".tmp-") }
        #expect(left == [".library.generation.tmp-1-5", ".metadata.json.tmp-999999999-1"])
    }

    @Test("replaceTranscript keeps the previous transcript in transcript.previous.json")
    func replaceTranscript() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "t1", segments: [F.segment("alpha", 0, 1)])
        try store.replaceTranscript(of: "t1", with: [F.segment("beta", 0, 1)])
        let folder = home.url.appendingPathComponent("recordings/t1")
        #expect(F.files(in: folder) == ["audio.wav", "metadata.json", "transcript.json", "transcript.previous.json"])
        let previous = try String(contentsOf: folder.appendingPathComponent("transcript.previous.json"), encoding: .utf8)
        #expect(previous == """
            {
              "language" : "en-US",
              "notes" : [

              ],
              "segments" : [
                {
                  "end" : 1,
                  "start" : 0,
                  "text" : "alpha",
                  "words" : [

                  ]
                }
              ],
              "speakers" : [

              ]
            }
            """)
        #expect(try store.transcript(of: "t1") == [F.segment("beta", 0, 1)])
        #expect(try store.hits("beta").count == 1)
        #expect(try store.hits("alpha") == [])
    }

    @Test("replaceTranscript with a language changes it in the same step; restore gives back the transcript and the language, twice toggles")
    func restoreGivesBackTheLanguage() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "t1", language: "en-US", segments: [F.segment("alpha", 0, 1)])
        try store.replaceTranscript(of: "t1", with: [F.segment("Guten Tag", 0, 1)], language: "de")
        #expect(try store.resolve("t1").language == "de")
        #expect(try store.restorePreviousTranscript(of: "t1"))
        #expect(try store.resolve("t1").language == "en-US")
        #expect(try store.transcript(of: "t1") == [F.segment("alpha", 0, 1)])
        #expect(try store.list().map(\.language) == ["en-US"])  // the index too
        #expect(try store.restorePreviousTranscript(of: "t1"))
        #expect(try store.resolve("t1").language == "de")
        #expect(try store.transcript(of: "t1") == [F.segment("Guten Tag", 0, 1)])
        // A reindex reads the same state from the files.
        try store.reindex()
        #expect(try store.list().map(\.language) == ["de"])
    }

    @Test("a previous transcript written before the language was kept (a bare array) restores its segments and keeps the language")
    func olderPreviousTranscript() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "t1", language: "fr", segments: [F.segment("bonjour", 0, 1)])
        let previousFile = home.url.appendingPathComponent("recordings/t1/transcript.previous.json")
        try JSONEncoder.liveTranscriber.encode([F.segment("alpha", 0, 1)]).write(to: previousFile)
        #expect(try store.restorePreviousTranscript(of: "t1"))
        #expect(try store.transcript(of: "t1") == [F.segment("alpha", 0, 1)])
        #expect(try store.resolve("t1").language == "fr")
        #expect(try store.restorePreviousTranscript(of: "t1"))
        #expect(try store.transcript(of: "t1") == [F.segment("bonjour", 0, 1)])
        #expect(try store.resolve("t1").language == "fr")
    }

    @Test("a transcript.json that cannot be read is set aside as transcript.json.damaged (then -2), never kept as the previous one")
    func damagedTranscriptSetAside() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "t1", segments: [F.segment("alpha", 0, 1)])
        try store.replaceTranscript(of: "t1", with: [F.segment("beta", 0, 1)])
        let folder = home.url.appendingPathComponent("recordings/t1")
        let previous = try Data(contentsOf: folder.appendingPathComponent("transcript.previous.json"))
        for (round, damaged) in ["{broken\n", "[{\n"].enumerated() {
            try Data(damaged.utf8).write(to: folder.appendingPathComponent("transcript.json"))
            try store.reindex()  // the folder is left out of the index as unreadable
            #expect(try store.list() == [])
            #expect(try store.resolveForNewTranscript("t1").id == "t1")
            try store.replaceTranscript(of: "t1", with: [F.segment("gamma \(round)", 0, 1)])
            #expect(try Data(contentsOf: folder.appendingPathComponent("transcript.previous.json")) == previous)
            #expect(try store.list().map(\.id) == ["t1"])
            #expect(try store.unreadableFolders() == [])
        }
        #expect(F.files(in: folder) == ["audio.wav", "metadata.json", "transcript.json", "transcript.json.damaged", "transcript.json.damaged-2",
                                        "transcript.previous.json"])
        #expect(try String(contentsOf: folder.appendingPathComponent("transcript.json.damaged"), encoding: .utf8) == "{broken\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("transcript.json.damaged-2"), encoding: .utf8) == "[{\n")
        #expect(try store.restorePreviousTranscript(of: "t1"))
        #expect(try store.transcript(of: "t1") == [F.segment("alpha", 0, 1)])
    }

    @Test("a previous transcript that cannot be read is an error, not 'no backup', and the current one stays")
    func unreadableBackup() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "t2", segments: [F.segment("alpha", 0, 1)])
        let backup = home.url.appendingPathComponent("recordings/t2/transcript.previous.json")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: false)  // unreadable as a file
        #expect(throws: FileSystemError.self) { try store.restorePreviousTranscript(of: "t2") }
        #expect(try store.transcript(of: "t2") == [F.segment("alpha", 0, 1)])
    }

    @Test("modify writes a summary that search then finds")
    func updateSummary() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "s1")
        try store.modify("s1") { $0.summary = "Decided to migrate the database" }
        #expect(try store.resolve("s1").summary == "Decided to migrate the database")
        let hits = try store.hits("migrate")
        #expect(hits.map(\.field) == [.summary])
        #expect(hits.first?.snippet() == "Decided to [migrate] the database")
    }

    @Test("ten writers adding tags at once through their own connections lose none of them")
    func concurrentTagChanges() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try F.save(try F.store(home), id: "c1")
        DispatchQueue.concurrentPerform(iterations: 10) { index in
            let store = try! F.store(home)
            try! store.changeTags("c1", adding: ["t\(index)"], removing: [])
        }
        let tags = try F.store(home).resolve("c1").tags
        #expect(Set(tags) == Set((0..<10).map { "t\($0)" }))
        try F.store(home).changeTags("c1", adding: ["x", "T1"], removing: ["T3", "x"])
        #expect(try F.store(home).resolve("c1").tags.filter { $0.lowercased() == "t1" } == ["t1"])
        #expect(try !F.store(home).resolve("c1").tags.contains("t3"))
        #expect(try !F.store(home).resolve("c1").tags.contains("x"))
    }

    @Test("delete moves to trash/ and unindexes; purge removes for good")
    func delete() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "k1", name: "Keep in trash")
        _ = try F.save(store, id: "p1", name: "Purge me")
        try store.delete("k1")
        try store.delete("p1", purge: true)
        #expect(F.files(in: home.url.appendingPathComponent("trash")) == ["k1"])
        #expect(F.files(in: home.url.appendingPathComponent("trash/k1")) == ["audio.wav", "metadata.json", "transcript.json"])
        #expect(F.files(in: home.url.appendingPathComponent("recordings")) == [])
        #expect(try store.list() == [])
        #expect(try store.hits("trash") == [])
        #expect(throws: LibraryError.notFound("k1")) { try store.delete("k1") }
        // A recording with the id of one already in the trash goes next to it, never over it.
        _ = try F.save(store, id: "k1", name: "Keep in trash again")
        try store.delete("k1")
        #expect(F.files(in: home.url.appendingPathComponent("trash")) == ["k1", "k1-2"])
    }

    @Test("recording ids (RecordingID.new) are yyyyMMdd-HHmmss-xxxx in UTC and sorts by time")
    func recordingIDs() throws {
        let id = RecordingID.new(date: F.t0)
        #expect(id.hasPrefix("20261129-204112-"))
        #expect(id.count == 20)
        #expect(id.suffix(4).allSatisfy { $0.isHexDigit })
        #expect(RecordingID.new(date: F.t0.addingTimeInterval(1)) > id)
    }

    @Test("no temporary files are left behind by saves, renames and replacements")
    func noTemporaryFiles() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        _ = try F.save(store, id: "c1", segments: [F.segment("a", 0, 1)])
        try store.rename("c1", to: "B")
        try store.replaceTranscript(of: "c1", with: [])
        let all = FileManager.default.enumerator(atPath: home.url.path)!.compactMap { $0 as? String }
        #expect(all.filter { ($0 as NSString).lastPathComponent.hasPrefix(".") } == [])
    }
}
