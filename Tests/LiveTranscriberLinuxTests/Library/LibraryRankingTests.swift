import Foundation
import Glibc
import LiveTranscriberCore
import LiveTranscriberLinux
@testable import LiveTranscriberStore
import Testing

@Suite("LibraryStore ranking, grouping and pages")
struct LibraryRankingTests {
    typealias F = LibraryFixtures

    static func filler(_ count: Int, from start: Double = 0) -> [TranscriptSegment] {
        (0..<count).map { F.segment("we walked along the quiet river bank talking about weather", start + Double($0) * 5, start + Double($0) * 5 + 4) }
    }

    @Test("a name match ranks above two mentions in a transcript, which rank above one mention in a long transcript")
    func ranking() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "long", createdAt: F.t0, name: "Walk",
                   segments: Self.filler(100) + [F.segment("and then the budget came up", 600, 604)])
        try F.save(store, id: "named", createdAt: F.t0.addingTimeInterval(60), name: "Budget review",
                   segments: [F.segment("numbers for next year", 0, 3)])
        try F.save(store, id: "twice", createdAt: F.t0.addingTimeInterval(120), name: "Call",
                   segments: Self.filler(10) + [F.segment("the budget is tight", 60, 62), F.segment("cut the budget", 70, 72)])
        try F.save(store, id: "none", createdAt: F.t0.addingTimeInterval(180), name: "Other", segments: Self.filler(5))
        #expect(try store.search("budget").map(\.recording.id) == ["named", "twice", "long"])
    }

    @Test("a recording holding both words of a two-word query ranks above one holding one of them, however often")
    func bothWords() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "red-only", createdAt: F.t0, name: "Paint",
                   segments: (0..<20).map { F.segment("red red red paint", Double($0) * 5, Double($0) * 5 + 4) })
        try F.save(store, id: "both", createdAt: F.t0.addingTimeInterval(60), name: "Tour",
                   segments: Self.filler(30) + [F.segment("a red door", 200, 203), F.segment("the old house", 300, 303)])
        try F.save(store, id: "neither", createdAt: F.t0.addingTimeInterval(120), name: "Notes", segments: Self.filler(3))
        let results = try store.search("red house")
        #expect(results.map(\.recording.id) == ["both", "red-only"])
        #expect(results[0].hits.map(\.startSeconds) == [200, 300])
    }

    @Test("50 matching segments in one recording and 1 in another give two results, each with its segments")
    func grouping() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "many", createdAt: F.t0, name: "Standup",
                   segments: (0..<50).map { F.segment("alpha release note \($0)", Double($0) * 10, Double($0) * 10 + 5) } + Self.filler(5, from: 600))
        try F.save(store, id: "one", createdAt: F.t0.addingTimeInterval(60), name: "Retro",
                   segments: Self.filler(5) + [F.segment("the alpha went well", 40, 44)])
        let all = try store.search(SearchRequest("alpha", placesPerRecording: 50))
        #expect(all.map(\.recording.id) == ["many", "one"])
        #expect(all.map(\.matchingSegments) == [50, 1])
        #expect(all[0].hits.map(\.startSeconds) == (0..<50).map { Double($0) * 10 })
        #expect(all[1].hits.map { $0.snippet() } == ["the [alpha] went well"])
        let best = try store.search("alpha")
        #expect(best.map { $0.hits.count } == [3, 1])
        #expect(best.map(\.matchingSegments) == [50, 1])
    }

    @Test("the last word is a prefix, the others whole words; one character is never a prefix")
    func prefix() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "m", createdAt: F.t0, name: "Sync", segments: [F.segment("the meeting about planning", 0, 3)])
        try F.save(store, id: "a", createdAt: F.t0.addingTimeInterval(60), name: "Solo", segments: [F.segment("a plan", 0, 3)])
        #expect(try store.search("meet").map(\.recording.id) == ["m"])
        #expect(try store.hits("meet").map { $0.snippet() } == ["the [meeting] about planning"])
        // "meet" before another word is a whole word: only "about" matches, a partial match.
        #expect(try store.search("meet about").first?.hits.map { $0.snippet() } == ["the meeting [about] planning"])
        #expect(try store.search("meeting plan").map(\.recording.id) == ["m", "a"])
        #expect(try store.search("plan").map(\.recording.id) == ["a", "m"])
        #expect(try store.search("a").map(\.recording.id) == ["a"])
    }

    @Test("pages of search and list follow each other without gaps or repeats")
    func paging() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        for index in 0..<7 {
            try F.save(store, id: "r\(index)", createdAt: F.t0.addingTimeInterval(Double(index) * 60), name: "Take \(index)",
                       tags: index.isMultiple(of: 2) ? ["Even"] : [],
                       segments: Self.filler(index) + (0...index).map { F.segment("omega \($0)", 100 + Double($0), 101 + Double($0)) })
        }
        let all = try store.search(SearchRequest("omega", limit: 20)).map(\.recording.id)
        #expect(all.count == 7)
        var paged: [String] = []
        for offset in stride(from: 0, to: 8, by: 3) {
            paged += try store.search(SearchRequest("omega", limit: 3, offset: offset)).map(\.recording.id)
        }
        #expect(paged == all)
        // Limits and offsets up to Int.max page the same, without overflowing (QA: --offset 9223372036854775800).
        #expect(try store.search(SearchRequest("omega", limit: Int.max, offset: 1)).map(\.recording.id) == Array(all.dropFirst()))
        #expect(try store.search(SearchRequest("omega", limit: 20, offset: Int.max - 5)).isEmpty)
        #expect(try store.search(SearchRequest("omega plan", limit: Int.max, offset: Int.max)).isEmpty)
        #expect(try store.list(ListRequest(limit: 3)).map(\.id) == ["r6", "r5", "r4"])
        #expect(try store.list(ListRequest(limit: 3, offset: 3)).map(\.id) == ["r3", "r2", "r1"])
        #expect(try store.list(ListRequest(limit: 3, offset: 6)).map(\.id) == ["r0"])
        #expect(try store.list(ListRequest(tag: "even", limit: 2)).map(\.id) == ["r6", "r4"])
        #expect(try store.list(ListRequest(tag: "EVEN", limit: 2, offset: 2)).map(\.id) == ["r2", "r0"])
        #expect(try store.list(ListRequest(tag: "even", since: F.t0.addingTimeInterval(120))).map(\.id) == ["r6", "r4", "r2"])
    }

    @Test("recordings that score the same are ordered newest first, also where a page boundary falls among them")
    func tiesAcrossPages() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        // Five recordings alike in everything the ranking reads, saved out of date order.
        for id in ["c", "a", "e", "b", "d"] {
            let minutes = Double(["a", "b", "c", "d", "e"].firstIndex(of: id)!)
            try F.save(store, id: id, createdAt: F.t0.addingTimeInterval(minutes * 60), name: "Same",
                       segments: [F.segment("kappa lambda", 0, 1)])
        }
        try F.save(store, id: "best", createdAt: F.t0, name: "Kappa", segments: [F.segment("kappa kappa", 0, 1)])
        #expect(try store.search(SearchRequest("kappa", limit: 3)).map(\.recording.id) == ["best", "e", "d"])
        #expect(try store.search(SearchRequest("kappa", limit: 3, offset: 3)).map(\.recording.id) == ["c", "b", "a"])
        #expect(try store.search(SearchRequest("lambda", limit: 2, offset: 1)).map(\.recording.id) == ["d", "c"])
        #expect(try store.search(SearchRequest("lambda", limit: 2, offset: 4)).map(\.recording.id) == ["a"])
    }

    @Test("opening trusts an index in step without listing the folders; a changed generation makes it look")
    func generation() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try F.save(try F.store(home), id: "kept", name: "Kept", segments: [F.segment("hello", 0, 1)])
        // A folder slipped in by hand, with the recordings folder's time put back: nothing says it changed.
        let recordings = home.url.appendingPathComponent("recordings")
        var before = stat()
        #expect(stat(recordings.path, &before) == 0)
        let source = recordings.appendingPathComponent("kept")
        let copy = recordings.appendingPathComponent("slipped")
        try FileManager.default.copyItem(at: source, to: copy)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, recordings.path, &times, 0) == 0)
        #expect(try F.store(home).list().map(\.id) == ["kept"])
        // A writer that crashed after bumping the generation: the next opening compares the folders.
        let generation = home.url.appendingPathComponent("library.generation")
        let value = Int(try String(contentsOf: generation, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        try "\(value + 1)\n".write(to: generation, atomically: true, encoding: .utf8)
        #expect(Set(try F.store(home).list().map(\.id)) == ["kept", "slipped"])
    }

    @Test("a word in most recordings is ranked from its own list, as BM25 ranks it")
    func commonWords() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // 600 recordings where "the" is everywhere.
        try Self.writeFolders(in: home, names: { $0 == 400 ? "The plan" : "Walk \($0)" }) { index in
            (0..<10).map { index == 17 ? "the the the of the" : "walking by the river number \(index) \($0)" }
        }
        let store = try F.store(home)
        let database = try SQLiteDatabase(path: home.url.appendingPathComponent("library.sqlite").path)
        #expect(try database.query("SELECT count(*) FROM common_terms WHERE term = 'the'") { $0.int64(0) } == [600])
        let top = try store.search(SearchRequest("the", limit: 3))
        #expect(top.map(\.recording.id) == ["r0017", "r0400", "r0599"])
        // The same order as FTS5's own BM25 over every matching recording.
        let bm25 = try database.query("""
            SELECT r.id FROM documents d JOIN recordings r ON r.number = d.rowid WHERE documents MATCH 'the'
            ORDER BY bm25(documents, 4.0, 3.0, 2.0, 1.0, 1.0), r.created_at DESC LIMIT 3
            """) { $0.text(0) }
        #expect(bm25 == ["r0017", "r0400", "r0599"])
        #expect(try store.search(SearchRequest("the", limit: 3, offset: 3)).map(\.recording.id) == ["r0598", "r0597", "r0596"])
    }

    @Test("common words of a longer query only filter: the other words rank, so a recording dense in 'the' does not rise")
    func commonWordsFilter() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // 600 recordings, "the" in a third of them (a common word); "garden" in two.
        try Self.writeFolders(in: home, names: { "Walk \($0)" }) { index in
            switch index {
            case 0: ["the the the the the the garden"]
            case 3: ["the garden x y z w"]
            default: [index.isMultiple(of: 3) ? "walking by the lake \(index)" : "walking by a lake \(index)"]
            }
        }
        let store = try F.store(home)
        let database = try SQLiteDatabase(path: home.url.appendingPathComponent("library.sqlite").path)
        #expect(try database.query("SELECT value FROM state WHERE key = 'common_terms'") { $0.text(0) }.first?.split(separator: " ").contains("the") == true)
        #expect(try store.search(SearchRequest("the garden", limit: 5)).map(\.recording.id) == ["r0003", "r0000"])
        // BM25 over both words would put the recording dense in "the" first.
        let both = try database.query("""
            SELECT r.id FROM documents d JOIN recordings r ON r.number = d.rowid WHERE documents MATCH 'the AND garden*'
            ORDER BY bm25(documents, 4.0, 3.0, 2.0, 1.0, 1.0) LIMIT 5
            """) { $0.text(0) }
        #expect(both == ["r0000", "r0003"])
    }

    @Test("a word in nine tenths of the recordings filters through the list of those that lack it, kept right by saves, deletes and reindex")
    func universalWordsFilter() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // 600 recordings, "the" in all but every twentieth (95%); "garden" in four, one of them without "the".
        try Self.writeFolders(in: home, names: { "Walk \($0)" }) { index in
            switch index {
            case 1, 3, 5: ["the garden by lake \(index)"]
            case 2: ["a garden by lake 2"]
            default: [index % 20 == 2 ? "walking by a lake \(index)" : "walking by the lake \(index)"]
            }
        }
        let store = try F.store(home)
        let database = try SQLiteDatabase(path: home.url.appendingPathComponent("library.sqlite").path)
        func absent() throws -> [Int64] { try database.query("SELECT count(*) FROM common_absent WHERE term = 'the'") { $0.int64(0) } }
        /// The recordings FTS5 itself finds holding both words.
        func fullMatches() throws -> Set<String> {
            Set(try database.query("""
                SELECT r.id FROM documents d JOIN recordings r ON r.number = d.rowid WHERE documents MATCH '"the" AND "garden"*'
                """) { $0.text(0) })
        }
        #expect(try database.query("SELECT value FROM state WHERE key = 'universal_terms'") { $0.text(0) }.first?.split(separator: " ").contains("the") == true)
        #expect(try absent() == [30])
        // Both words first (tied, newest first), then "garden" alone.
        #expect(try store.search(SearchRequest("the garden", limit: 10)).map(\.recording.id) == ["r0005", "r0003", "r0001", "r0002"])
        #expect(try fullMatches() == ["r0005", "r0003", "r0001"])
        try F.save(store, id: "n1", createdAt: F.t0.addingTimeInterval(1_000), name: "Walk n", segments: [F.segment("a garden by lake x", 0, 4)])
        try F.save(store, id: "n2", createdAt: F.t0.addingTimeInterval(1_001), name: "Walk n", segments: [F.segment("the garden by lake y", 0, 4)])
        try store.delete("r0005", purge: true)
        try store.delete("r0022", purge: true)  // one without "the": its row in the list goes too
        #expect(try absent() == [30])
        let expected = ["n2", "r0003", "r0001", "n1", "r0002"]
        #expect(try store.search(SearchRequest("the garden", limit: 10)).map(\.recording.id) == expected)
        #expect(try fullMatches() == ["n2", "r0003", "r0001"])
        #expect(try store.search(SearchRequest("the garden", limit: 2, offset: 2)).map(\.recording.id) == ["r0001", "n1"])
        _ = try store.reindex()
        #expect(try absent() == [30])
        #expect(try store.search(SearchRequest("the garden", limit: 10)).map(\.recording.id) == expected)
    }

    /// Writes `count` recording folders (`r0000`…) directly, to be indexed when the store opens:
    /// recording `i` is named `names(i)`, made `i` seconds after `F.t0`, with one segment of 4 s
    /// every 5 s per text of `texts(i)`.
    static func writeFolders(in home: TemporaryDirectory, count: Int = 600, names: (Int) -> String, texts: (Int) -> [String]) throws {
        let encoder = JSONEncoder.liveTranscriber
        for index in 0..<count {
            let id = String(format: "r%04d", index)
            let folder = home.url.appendingPathComponent("recordings/\(id)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let segments = texts(index).enumerated().map { F.segment($0.element, Double($0.offset) * 5, Double($0.offset) * 5 + 4) }
            let recording = Recording(id: id, name: names(index), createdAt: F.t0.addingTimeInterval(Double(index)),
                                      durationSeconds: 50, language: "en-US", audio: F.mono16k)
            try encoder.encode(recording).write(to: folder.appendingPathComponent("metadata.json"))
            try encoder.encode(segments).write(to: folder.appendingPathComponent("transcript.json"))
        }
    }
}
