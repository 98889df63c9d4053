import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// One contract, every implementation: each test runs against the SQLite library and the
/// in-memory store that command tests use, so the fake cannot drift from the real thing.
@Suite("RecordingStore conformance")
struct RecordingStoreConformanceTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case library, memory
        var testDescription: String { rawValue }
    }

    /// Runs `body` on a fresh store of `kind` (recordings are saved through its drafts).
    static func with(_ kind: Kind, _ body: (any RecordingStore, Saver) throws -> Void) throws {
        try withDamage(kind) { store, save, _ in try body(store, save) }
    }

    /// Runs `body` on a fresh store of `kind` with a way to make a saved recording unreadable: for
    /// the library, a damaged metadata.json, then `reindex`; for the fake, its `damage(_:)`.
    static func withDamage(_ kind: Kind, _ body: (any RecordingStore, Saver, _ damage: (String) throws -> Void) throws -> Void) throws {
        let folder = try TestFolders.make("lt-conformance")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        switch kind {
        case .library:
            let store = try LibraryStore(directory: folder, timeZone: TimeZone(identifier: "UTC")!)
            try body(store, Saver(store)) { id in
                try Data("{garbage\n".utf8).write(to: folder.appendingPathComponent("recordings/\(id)/metadata.json"))
                try store.reindex()
            }
        case .memory:
            let store = InMemoryRecordingStore()
            try body(store, Saver(store), store.damage)
        }
    }

    /// Saves recordings through a store's drafts, as `record` does.
    struct Saver {
        let save: (String, Double, String?, [String], [String]) throws -> Recording

        init<S: RecordingDraftStore>(_ store: S) {
            save = { id, minutes, name, tags, texts in
                let draft = try store.createDraft(id: id, createdAt: RecordingStoreConformanceTests.t0.addingTimeInterval(minutes * 60),
                                                  language: "en-US", audio: RecordingStoreConformanceTests.mono, name: nil, tags: [], keepIfInterrupted: true)
                let segments = texts.enumerated().map {
                    TranscriptSegment(text: $0.element, startSeconds: Double($0.offset) * 5, endSeconds: Double($0.offset) * 5 + 4)
                }
                for segment in segments { try store.appendToJournal(segment, draft: draft) }
                return try store.saveDraft(draft, name: name, tags: tags, location: nil, durationSeconds: Double(texts.count) * 5, segments: segments, encoding: nil, imported: nil)
            }
        }

        @discardableResult
        func callAsFunction(_ id: String, at minutes: Double, name: String?, tags: [String] = [], _ texts: [String] = []) throws -> Recording {
            try save(id, minutes, name, tags, texts)
        }
    }

    static let t0 = Date(timeIntervalSince1970: 1_795_984_872)  // 2026-11-29 20:41:12 UTC
    static let mono = AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)

    @Test("every tag once regardless of case, in the newest recording's spelling (ties by id), as RecordingTags.all of the whole list; after deletes and tag changes too", arguments: Kind.allCases)
    func allTags(kind: Kind) throws {
        try Self.with(kind) { store, save in
            #expect(try store.allTags() == [])
            try save("20261129-2041-aa", at: 0, name: nil, tags: ["work", "Zeta"])
            try save("20261129-2042-ab", at: 1, name: nil, tags: ["Work", "alpha"])
            try save("20261129-2042-ac", at: 1, name: nil, tags: ["WORK"])  // same time: the larger id is listed first
            try save("20261129-2043-bb", at: 2, name: nil, tags: ["beta"])
            try save("20261129-2044-cc", at: 3, name: nil)
            #expect(try store.allTags() == ["alpha", "beta", "WORK", "Zeta"])
            #expect(try store.allTags() == RecordingTags.all(in: try store.list()))
            try store.delete("20261129-2042-ac", purge: false)
            #expect(try store.allTags() == ["alpha", "beta", "Work", "Zeta"])
            try store.changeTags("20261129-2043-bb", adding: ["ZETA"], removing: ["beta"])
            #expect(try store.allTags() == ["alpha", "Work", "ZETA"])
            #expect(try store.allTags() == RecordingTags.all(in: try store.list()))
        }
    }

    @Test("saved drafts are listed newest first, paged, and resolved by id, unique prefix or latest", arguments: Kind.allCases)
    func listAndResolve(kind: Kind) throws {
        try Self.with(kind) { store, save in
            try save("20261129-2041-aa", at: 0, name: nil)
            try save("20261129-2042-ab", at: 1, name: "  Second  ", tags: ["Work", "work", " x "])
            try save("20261129-2043-bb", at: 2, name: "Third", tags: ["x"])
            #expect(try store.list().map(\.id) == ["20261129-2043-bb", "20261129-2042-ab", "20261129-2041-aa"])
            #expect(try store.list().map(\.name) == ["Third", "Second", "Recording 2026-11-29 20:41"])
            #expect(try store.list().map(\.tags) == [["x"], ["Work", "x"], []])
            #expect(try store.list(ListRequest(limit: 1, offset: 1)).map(\.id) == ["20261129-2042-ab"])
            #expect(try store.list(ListRequest(tag: "X", limit: 5)).map(\.id) == ["20261129-2043-bb", "20261129-2042-ab"])
            #expect(try store.list(ListRequest(since: Self.t0.addingTimeInterval(60))).map(\.id) == ["20261129-2043-bb", "20261129-2042-ab"])
            #expect(try store.resolve("latest").id == "20261129-2043-bb")
            #expect(try store.resolve("20261129-2041").id == "20261129-2041-aa")
            #expect(throws: LibraryError.ambiguous("20261129-204", matches: ["20261129-2041-aa", "20261129-2042-ab", "20261129-2043-bb"])) {
                try store.resolve("20261129-204")
            }
            #expect(throws: LibraryError.notFound("nope")) { try store.resolve("nope") }
        }
    }

    @Test("a transcript replaced only if it is still the one read: a stale expected transcript changes nothing, the previous one included",
          arguments: Kind.allCases)
    func replaceWhenUnchanged(kind: Kind) throws {
        try Self.with(kind) { store, save in
            try save("r1", at: 0, name: "One", tags: [], ["live words"])
            let live = try store.transcript(of: "r1")
            // Another command's transcript lands while this one transcribes.
            try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "other words", startSeconds: 1, endSeconds: 2)])
            #expect(throws: LibraryError.changedMeanwhile(id: "r1")) {
                try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "refined words", startSeconds: 1, endSeconds: 2)],
                                            language: "de", vocabulary: ["Norland"], expected: .segments(live))
            }
            #expect(try store.transcript(of: "r1").map(\.text) == ["other words"])
            #expect(try store.resolve("r1").language == "en-US")
            #expect(try store.resolve("r1").vocabulary == [])
            #expect(try store.search("refined").isEmpty)
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["live words"])
            // Read again, it is the one expected: replaced, the one read kept as the previous.
            try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "refined words", startSeconds: 1, endSeconds: 2)],
                                        language: nil, vocabulary: nil, expected: .segments(try store.transcript(of: "r1")))
            #expect(try store.transcript(of: "r1").map(\.text) == ["refined words"])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["live words"])
            #expect(throws: LibraryError.notFound("nope")) {
                try store.replaceTranscript(of: "nope", with: [], language: nil, vocabulary: nil, expected: .segments([]))
            }
        }
    }

    @Test("a new transcript brings its notes and speakers in the same change, and a restore puts back the ones before, none included",
          arguments: Kind.allCases)
    func notesAndSpeakersFollowTheTranscript(kind: Kind) throws {
        try Self.with(kind) { store, save in
            try save("r1", at: 0, name: "One", tags: [], ["live words"])
            let labelled = [TranscriptSegment(text: "refined words", startSeconds: 1, endSeconds: 2, speaker: "S1")]
            try store.replaceTranscript(of: "r1", with: labelled, language: nil, vocabulary: nil, speakers: [Speaker(id: "S1")],
                                        notes: ["Dropped 'Thank you.' at 0:04: a phrase Whisper invents."], expected: .anything)
            #expect(try store.resolve("r1").notes == ["Dropped 'Thank you.' at 0:04: a phrase Whisper invents."])
            #expect(try store.resolve("r1").speakers == [Speaker(id: "S1")])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["live words"])
            #expect(try store.resolve("r1").notes == [])
            #expect(try store.resolve("r1").speakers == [])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.resolve("r1").notes == ["Dropped 'Thank you.' at 0:04: a phrase Whisper invents."])
            #expect(try store.resolve("r1").speakers == [Speaker(id: "S1")])
            // Notes not given are kept, as the language and vocabulary are.
            try store.replaceTranscript(of: "r1", with: labelled, language: nil, vocabulary: nil, expected: .anything)
            #expect(try store.resolve("r1").notes == ["Dropped 'Thank you.' at 0:04: a phrase Whisper invents."])
        }
    }

    @Test("rename, tags, summary, transcripts (with their language and vocabulary) and delete follow the same rules", arguments: Kind.allCases)
    func changes(kind: Kind) throws {
        try Self.with(kind) { store, save in
            try save("r1", at: 0, name: "One", tags: ["a"], ["first words"])
            #expect(try store.rename("r1", to: "  Renamed ").name == "Renamed")
            #expect(throws: LibraryError.invalid("a recording's name cannot be empty.")) { try store.rename("r1", to: "  ") }
            #expect(throws: LibraryError.invalid("a recording's name must be one line.")) { try store.rename("r1", to: "a\nb") }
            #expect(try store.changeTags("r1", adding: ["B", "c"], removing: ["A", "c"]).tags == ["B"])
            #expect(try store.modify("r1") { $0.summary = "Talks about migrations." }.summary == "Talks about migrations.")
            #expect(try store.search("migrations").map(\.recording.id) == ["r1"])
            try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "second words", startSeconds: 1, endSeconds: 2)])
            #expect(try store.transcript(of: "r1").map(\.text) == ["second words"])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["first words"])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.transcript(of: "r1").map(\.text) == ["second words"])
            // A re-transcription with a vocabulary keeps it; a restore puts back the one before (none).
            try store.replaceTranscript(of: "r1", with: [TranscriptSegment(text: "Norland", startSeconds: 1, endSeconds: 2)],
                                        language: "en-GB", vocabulary: ["Norland"])
            #expect(try store.resolve("r1").vocabulary == ["Norland"])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.resolve("r1").vocabulary == [])
            #expect(try store.restorePreviousTranscript(of: "r1"))
            #expect(try store.resolve("r1").vocabulary == ["Norland"])
            #expect(try store.resolve("r1").language == "en-GB")
            try store.delete("r1", purge: false)
            #expect(try store.list() == [])
            #expect(throws: LibraryError.notFound("r1")) { try store.transcript(of: "r1") }
            #expect(throws: LibraryError.notFound("r1")) { try store.rename("r1", to: "x") }
            #expect(try store.search("second").isEmpty)
        }
    }

    @Test("search ranks recordings, groups their places, pages, and matches prefixes, accents and CJK", arguments: Kind.allCases)
    func search(kind: Kind) throws {
        try Self.with(kind) { store, save in
            let filler = Array(repeating: "we walked along the quiet river talking about the weather", count: 40)
            try save("long", at: 0, name: "Walk", filler + ["and then the budget came up"])
            try save("named", at: 1, name: "Budget review", ["numbers for next year"])
            try save("many", at: 2, name: "Café sync", (0..<12).map { "alpha item \($0)" } + ["今天我们发现50条悬空引用"])
            try save("both", at: 3, name: "Tour", filler + ["a red door", "the old house"])
            try save("red", at: 4, name: "Paint", Array(repeating: "red red paint", count: 10))
            #expect(try store.search("budget").map(\.recording.id) == ["named", "long"])
            #expect(try store.search("red house").map(\.recording.id) == ["both", "red"])
            let grouped = try store.search(SearchRequest("alpha", placesPerRecording: 5))
            #expect(grouped.map(\.recording.id) == ["many"])
            #expect(grouped.map(\.matchingSegments) == [12])
            #expect(grouped[0].hits.map(\.startSeconds) == [0, 5, 10, 15, 20])
            #expect(try store.search("cafe").first?.hits.map { $0.snippet() } == ["[Café] sync"])
            #expect(try store.search("bud").map(\.recording.id) == ["named", "long"])
            for cjk in ["悬", "悬空", "悬空引用"] {
                #expect(try store.search(cjk).first?.hits.map(\.startSeconds) == [60], "\(cjk)")
            }
            #expect(try store.search(SearchRequest("budget", limit: 1, offset: 1)).map(\.recording.id) == ["long"])
            #expect(try store.search("*").isEmpty)
            #expect(try store.search("zzz").isEmpty)
        }
    }

    @Test("a recording that cannot be read leaves list and search, is named by unreadableFolders, refused by resolve with why, and deleted by its exact id",
          arguments: Kind.allCases)
    func unreadable(kind: Kind) throws {
        try Self.withDamage(kind) { store, save, damage in
            let (kept, broken, alsoBroken) = ("20261129-2041-aa", "20261129-2042-bb", "20261129-2043-cc")
            try save(kept, at: 0, name: "Kept", ["budget talk"])
            try save(broken, at: 1, name: "Broken", ["budget numbers"])
            try save(alsoBroken, at: 2, name: "Also broken")
            #expect(try store.unreadableFolders() == [])
            #expect(!store.isUnreadableFolder(broken))
            try damage(broken)
            try damage(alsoBroken)
            let unreadable = try store.unreadableFolders()
            #expect(unreadable.map(\.id) == [broken, alsoBroken])
            for folder in unreadable {
                guard case .corrupt(let path, _) = folder.problem else { Issue.record("\(folder.problem)"); continue }
                #expect(path.hasSuffix("recordings/\(folder.id)/metadata.json"))
            }
            #expect(try store.list().map(\.id) == [kept])
            #expect(try store.search("budget").map(\.recording.id) == [kept])
            #expect(try store.resolve("latest").id == kept)
            for reference in [broken, "20261129-2042"] {  // the exact id, or the only id with that prefix
                #expect {
                    try store.resolve(reference)
                } throws: { error in
                    guard case LibraryError.corrupt(_, let reason) = error else { return false }
                    return reason == "The given data was not valid JSON. Recording \(broken) exists, but list, search and other commands "
                        + "leave it out until the file is fixed or restored; then run 'livetranscriber reindex'"
                }
            }
            #expect(store.isUnreadableFolder(broken))
            #expect(!store.isUnreadableFolder("20261129-2042"))  // a prefix is not enough to delete by
            #expect(!store.isUnreadableFolder(kept))
            #expect(!store.isUnreadableFolder("nope"))
            #expect {
                try store.rename(broken, to: "Renamed")
            } throws: { error in
                if case LibraryError.corrupt = error { true } else { false }
            }
            try store.delete(broken, purge: false)
            try store.delete(alsoBroken, purge: true)
            #expect(try store.unreadableFolders() == [])
            #expect(!store.isUnreadableFolder(broken))
            #expect(throws: LibraryError.notFound(broken)) { try store.resolve(broken) }
            #expect(throws: LibraryError.notFound(broken)) { try store.delete(broken, purge: true) }
            #expect(try store.list().map(\.id) == [kept])
        }
    }

    @Test("recordings are found by their audio content digest", arguments: Kind.allCases)
    func digests(kind: Kind) throws {
        try Self.with(kind) { store, save in
            try save("a", at: 0, name: "A")
            try save("b", at: 1, name: "B")
            try store.modify("a") { $0.audioDigest = "sha256:00ff" }
            #expect(try store.recordings(withAudioDigest: "sha256:00ff").map(\.id) == ["a"])
            #expect(try store.recordings(withAudioDigest: "sha256:0000").isEmpty)
        }
    }
}
