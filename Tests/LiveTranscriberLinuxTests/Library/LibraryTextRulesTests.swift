import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import Testing

private typealias F = LibraryFixtures

@Suite("Library text rules on the real store")
struct LibraryTextRulesTests {
    @Test("ß matches ss in names, tags, transcripts and summaries, in any case")
    func eszett() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try F.store(directory)
        try F.save(store, id: "20261129-204112-aaaa", name: "Straße Planung", tags: ["Fußball"],
                   segments: [F.segment("die Maßnahme beginnt", 0, 2)])
        try store.modify("20261129-204112-aaaa") { $0.summary = "Große Pläne" }
        for query in ["Straße", "strasse", "STRASSE", "Fußball", "fussball", "FUSSBALL", "massnahme", "grosse", "plane"] {
            #expect(try store.search(query).map(\.recording.id) == ["20261129-204112-aaaa"], "query \(query)")
        }
        #expect(try store.hits("strasse").first?.snippet() == "[Straße] Planung")
        #expect(try store.hits("fussball").first?.snippet() == "[Fußball]")
        #expect(try store.hits("massnahme").first?.snippet() == "die [Maßnahme] beginnt")
    }

    @Test("rename and tag changes follow the name and tag rules")
    func namesAndTags() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try F.store(directory)
        try F.save(store, id: "20261129-204112-aaaa", name: "Memo")
        #expect(throws: LibraryError.invalid("a recording's name cannot contain control or invisible formatting characters (found U+202E).")) {
            try store.rename("20261129-204112-aaaa", to: "evil\u{202E}txt.exe")
        }
        #expect(try store.changeTags("20261129-204112-aaaa", adding: ["a,b", "Work"], removing: []).tags == ["a", "b", "Work"])
        #expect(try store.changeTags("20261129-204112-aaaa", adding: [], removing: ["WORK,a"]).tags == ["b"])
        #expect(throws: LibraryError.invalid("a tag cannot contain control or invisible formatting characters (found U+001B).")) {
            try store.setTags("20261129-204112-aaaa", ["x\u{1B}[2J"])
        }
        #expect(try store.resolve("latest").tags == ["b"])
        #expect(try store.resolve("latest").name == "Memo")
    }

    @Test("a save cleans a name and tags instead of losing the recording")
    func saveCleans() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try F.store(directory)
        let saved = try F.save(store, id: "20261129-204112-aaaa", name: "a\u{202E}b", tags: ["x,y\u{200B}z"])
        #expect(saved.name == "a b")
        #expect(saved.tags == ["x", "y z"])
    }
}
