import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
@testable import LiveTranscriberStore
import Testing

@Suite("LibraryStore search")
struct LibrarySearchTests {
    typealias F = LibraryFixtures

    /// One library of three recordings with names, tags, languages and transcripts, built once
    /// for the whole suite (the tests only read it).
    static let shared: Result<URL, any Error> = Result {
        let home = try TemporaryDirectory()
        try fill(F.store(home))
        return home.url
    }

    static func library() throws -> LibraryStore {
        try LibraryStore(directory: try shared.get(), timeZone: F.utc)
    }

    static func fill(_ store: LibraryStore) throws {
        try F.save(store, id: "r1-cafe", createdAt: F.t0, name: "Café meeting", tags: ["work"], segments: [
            F.segment("we discussed the multi-agent planner", 0, 4),
            F.segment("I don't think AT&T supports Ubuntu 20.04", 62.5, 70),
            F.segment("use the star * and quotes \" carefully", 125, 130),
        ], seconds: 130)
        try F.save(store, id: "r2-zh", createdAt: F.t0.addingTimeInterval(60), name: "周会", tags: ["团队"], language: "zh-CN", segments: [
            F.segment("今天我们发现50条悬空引用需要修复", 3, 8),
            F.segment("会議は明日です", 75, 80),
            F.segment("회의록을 공유해 주세요", 90, 95),
        ], seconds: 95)
        try F.save(store, id: "r3-budget", createdAt: F.t0.addingTimeInterval(120), name: "Budget review", language: "fr-FR", segments: [
            F.segment("the budget for next year and the café order", 10, 15),
        ], seconds: 15)
    }

    @Test("case and diacritics are folded both ways",
          arguments: [("cafe", ["r1-cafe:name", "r3-budget:transcript"]), ("CAFÉ", ["r1-cafe:name", "r3-budget:transcript"]),
                      // The recording holding both words first, then the one holding only "café".
                      ("Cafe meeting", ["r1-cafe:name", "r3-budget:transcript"]), ("MEETING", ["r1-cafe:name"])])
    func folding(query: String, expected: [String]) throws {
        let hits = try Self.library().hits(query)
        #expect(hits.map { "\($0.recordingID):\($0.field.rawValue)" } == expected)
    }

    @Test("CJK text is found by substrings of one, two and more characters",
          arguments: [("悬空", "r2-zh", 3.0), ("悬", "r2-zh", 3.0), ("悬空引用", "r2-zh", 3.0), ("50条悬空引用", "r2-zh", 3.0),
                      ("明日", "r2-zh", 75.0), ("회의록", "r2-zh", 90.0), ("공유", "r2-zh", 90.0)])
    func cjk(query: String, id: String, start: Double) throws {
        let hits = try Self.library().hits(query)
        #expect(hits.count == 1)
        #expect(hits.first?.recordingID == id)
        #expect(hits.first?.field == .transcript)
        #expect(hits.first?.startSeconds == start)
    }

    @Test("decomposed Korean and Japanese (a macOS file name) and composed text find each other, in names, tags and transcripts")
    func decomposedText() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let nfd = { (text: String) in text.decomposedStringWithCanonicalMapping }
        try F.save(store, id: "ko", createdAt: F.t0, name: nfd("회의 예산"), tags: [nfd("회의")])
        try F.save(store, id: "ja", createdAt: F.t0.addingTimeInterval(1), name: "Lesson",
                   segments: [F.segment(nfd("ガラス がっこう"), 2, 4)])
        #expect(try store.hits("회의").map { "\($0.recordingID):\($0.field.rawValue)" } == ["ko:name", "ko:tag"])
        #expect(try store.hits(nfd("예산")).map(\.recordingID) == ["ko"])
        let hit = try #require(try store.hits("がっこう").first)
        #expect(hit.recordingID == "ja")
        #expect(hit.snippet() == "ガラス [がっこう]")  // the snippet shows the text composed
        #expect(try store.hits(nfd("ガラス")).map(\.recordingID) == ["ja"])
    }

    @Test("a CJK hit has its match marked in a snippet of the original text")
    func cjkSnippet() throws {
        let hit = try #require(try Self.library().hits("悬空").first)
        #expect(hit.snippet() == "今天我们发现50条[悬空]引用需要修复")
        #expect(hit.timeText == "0:03")
    }

    @Test("any input is safe: punctuation and operators return matches or nothing, never an error",
          arguments: [("multi-agent", 1), ("don't", 1), ("AT&T", 1), ("20.04", 1), ("*", 0), ("AND", 2), ("\"", 0), ("(", 0),
                      ("", 0), ("   ", 0), ("NOT", 0), ("OR budget", 1), ("NEAR(a b)", 0), ("^café", 2), ("name:café", 0),
                      ("\"unbalanced", 0), ("a\"b", 0), ("'", 0), ("{}", 0), ("-", 0), ("--", 0), ("%", 0), ("_", 0)])
    func safeInput(query: String, count: Int) throws {
        let results = try Self.library().search(query)
        #expect(results.count == count)
    }

    @Test("a transcript hit carries the matching segment's time and a marked snippet")
    func timeAndSnippet() throws {
        let hit = try #require(try Self.library().hits("ubuntu").first)
        #expect(hit.recordingID == "r1-cafe")
        #expect(hit.recordingName == "Café meeting")
        #expect(hit.createdAt == F.t0)
        #expect(hit.startSeconds == 62.5)
        #expect(hit.timeText == "1:02")
        #expect(hit.snippet() == "I don't think AT&T supports [Ubuntu] 20.04")
        #expect(hit.snippet(open: "\u{1B}[1m", close: "\u{1B}[0m") == "I don't think AT&T supports \u{1B}[1mUbuntu\u{1B}[0m 20.04")
    }

    @Test("hits are ranked: a name match comes before a transcript match")
    func ranking() throws {
        let hits = try Self.library().hits("budget")
        #expect(hits.map { "\($0.recordingID):\($0.field.rawValue)" } == ["r3-budget:name", "r3-budget:transcript"])
        #expect(hits[0].score > hits[1].score)
    }

    @Test("tags and languages are searchable",
          arguments: [("work", "r1-cafe:tag"), ("团队", "r2-zh:tag"), ("fr", "r3-budget:language"), ("zh-CN", "r2-zh:language")])
    func tagsAndLanguages(query: String, expected: String) throws {
        let hits = try Self.library().hits(query)
        #expect(hits.map { "\($0.recordingID):\($0.field.rawValue)" } == [expected])
    }

    @Test("words are prefixes: 'plan' finds 'planner'")
    func prefixes() throws {
        let hits = try Self.library().hits("plan")
        #expect(hits.map(\.recordingID) == ["r1-cafe"])
        #expect(hits.first?.snippet() == "we discussed the multi-agent [planner]")
    }

    @Test("search JSON has id, name, createdAt, field, start, time, snippet, text and score")
    func hitJSON() throws {
        let hit = try #require(try Self.library().hits("ubuntu").first)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder.liveTranscriber.encode(hit)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "name", "createdAt", "field", "start", "time", "snippet", "text", "score"])
        #expect(object["time"] as? String == "1:02")
        #expect(object["snippet"] as? String == "I don't think AT&T supports [Ubuntu] 20.04")
        #expect(object["text"] as? String == "I don't think AT&T supports Ubuntu 20.04")
        #expect(object["createdAt"] as? String == "2026-11-29T20:41:12Z")
    }

    @Test("brackets and backslashes of the text itself are escaped in JSON's snippet, so only the marks are bare, and it decodes back the same")
    func bracketsInJSONSnippets() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "a", name: "Notes", segments: [F.segment("see [1] in C:\\temp\\[draft] for the plan", 1, 2)])
        let hit = try #require(try store.hits("plan").first)
        let data = try JSONEncoder.liveTranscriber.encode(hit)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["snippet"] as? String == "see \\[1\\] in C:\\\\temp\\\\\\[draft\\] for the [plan]")
        #expect(object["text"] as? String == "see [1] in C:\\temp\\[draft] for the plan")
        #expect(try JSONDecoder.liveTranscriber.decode(SearchHit.self, from: data) == hit)
        #expect(hit.snippet() == "see [1] in C:\\temp\\[draft] for the [plan]")
    }

    @Test("a Latin word or a number written against CJK characters is found as a word")
    func latinInsideCJK() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        try F.save(store, id: "mixed", language: "zh-CN", segments: [F.segment("我们用Swift开发了50个模块", 2, 6)])
        #expect(try store.hits("swift").map(\.recordingID) == ["mixed"])
        #expect(try store.hits("50").map(\.recordingID) == ["mixed"])
        #expect(try store.hits("用Swift").map(\.recordingID) == ["mixed"])
        #expect(try store.hits("swift").first?.snippet() == "我们用[Swift]开发了50个模块")
    }

    @Test("very long queries are safe")
    func longQueries() throws {
        let store = try Self.library()
        #expect(try store.search(Array(repeating: "the AND (", count: 1_000).joined(separator: " ")).map(\.recording.id) == ["r3-budget", "r1-cafe"])
        #expect(try store.hits(String(repeating: "悬空", count: 2_000)).count == 0)
        #expect(try store.hits(String(repeating: "x", count: 100_000)).count == 0)
    }

    @Test("each recording is one FTS5 document of folded tokens, every CJK character its own token")
    func documents() throws {
        let database = try SQLiteDatabase(path: try Self.shared.get().appendingPathComponent("library.sqlite").path)
        #expect(try database.query("SELECT count(*) FROM documents") { $0.int64(0) } == [3])
        let hits = try database.query("SELECT rowid FROM documents WHERE documents MATCH '\"悬 空\"'") { $0.int64(0) }
        #expect(hits.count == 1)
        #expect(try database.query("INSERT INTO documents(documents) VALUES ('integrity-check')") { _ in 0 } == [])
    }
}
