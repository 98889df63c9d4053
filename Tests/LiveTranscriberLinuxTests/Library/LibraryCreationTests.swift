import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// `LibraryCreation`: what a saving command created is taken back only when nothing is in it.
@Suite("LibraryCreation")
struct LibraryCreationTests {
    typealias F = LibraryFixtures

    static func contents(of folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
    }

    @Test("an unused new library is removed with the folders on its way; one holding a recording or a draft stays")
    func removesOnlyWhatHoldsNothing() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let directory = home.url.appendingPathComponent("a/b")
        let unused = LibraryCreation(directory: directory)
        do { _ = try LibraryStore(directory: directory) }
        #expect(Self.contents(of: home.url).contains("a/b/library.sqlite"))
        #expect(unused.removeIfUnused())
        #expect(Self.contents(of: home.url) == [])

        let saved = LibraryCreation(directory: directory)
        do { _ = try F.save(try LibraryStore(directory: directory), id: "r1", segments: [F.segment("kept", 0, 1)]) }
        #expect(!saved.removeIfUnused())
        #expect(try LibraryStore(directory: directory).list().map(\.id) == ["r1"])

        let other = home.url.appendingPathComponent("c")
        let drafted = LibraryCreation(directory: other)
        do {
            _ = try LibraryStore(directory: other).createDraft(id: "20261129-204112-3f9a", createdAt: F.t0, language: "en-US", audio: F.mono16k)
        }
        #expect(!drafted.removeIfUnused())
        #expect(Self.contents(of: other.appendingPathComponent("drafts")) == ["20261129-204112-3f9a", "20261129-204112-3f9a/draft.json",
                                                                              "20261129-204112-3f9a/lock"])
    }

    @Test("nothing is removed while another process holds the new library's write lock, nor in a library that existed")
    func lockAndExistingLibrary() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let creation = LibraryCreation(directory: home.url)
        do { _ = try LibraryStore(directory: home.url) }
        let lock = try #require(try FileLock.acquire(home.url.appendingPathComponent("library.lock")))
        #expect(!creation.removeIfUnused())
        lock.release()
        let existing = LibraryCreation(directory: home.url)
        #expect(!existing.removeIfUnused())
        #expect(Self.contents(of: home.url) == ["drafts", "library.generation", "library.lock", "library.sqlite", "recordings", "trash"])
        #expect(creation.removeIfUnused())
        #expect(Self.contents(of: home.url) == [])
        #expect(FileManager.default.fileExists(atPath: home.url.path))  // it existed before: only the library went
    }
}
