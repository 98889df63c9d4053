import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import Testing

/// The app's screens see the library only as `any RecordingLibrary`; the real store answers
/// through it exactly as it does directly.
@Suite("The library store as a RecordingLibrary")
struct RecordingLibraryConformanceTests {
    @Test("list, search, modify with a summary, delete and recover through the protocol")
    func throughTheProtocol() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try LibraryFixtures.store(directory)
        try LibraryFixtures.save(store, id: "20261129-204112-aaaa", name: "Budget meeting", tags: ["work"],
                                 segments: [LibraryFixtures.segment("we agreed on the budget", 0.5, 2)])
        try LibraryFixtures.save(store, id: "20261129-204113-bbbb", createdAt: LibraryFixtures.t0 + 60, name: "Walk")
        let library: any RecordingLibrary = store

        #expect(try library.list().map(\.id) == ["20261129-204113-bbbb", "20261129-204112-aaaa"])
        let results = try library.search("budget", limit: 10)
        #expect(results.map(\.recording.id) == ["20261129-204112-aaaa"])

        let summary = TranscriptSummary(summary: "The budget was agreed.", tags: ["Work", "budget"],
                                        language: .english, engine: "offline")
        let updated = try library.modify("20261129-204112-aaaa") { $0.apply(summary) }
        #expect(updated.summary == "The budget was agreed.")
        #expect(updated.tags == ["work", "budget"])

        try library.delete("20261129-204113-bbbb", purge: false)
        #expect(try library.list().map(\.id) == ["20261129-204112-aaaa"])
        #expect(try library.recoverDrafts().isEmpty)
    }
}
