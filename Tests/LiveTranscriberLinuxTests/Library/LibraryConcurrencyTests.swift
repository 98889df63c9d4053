import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Synchronization
@testable import LiveTranscriberStore
import Testing

@Suite("LibraryStore concurrency")
struct LibraryConcurrencyTests {
    typealias F = LibraryFixtures

    @Test("one connection saving while another lists, renames, tags and searches: nothing fails, nothing is lost")
    func writerAndReader() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try F.save(try F.store(home), id: "base", name: "Base")
        let directory = home.url
        let errors = Mutex<[String]>([])
        let writerDone = Atomic<Bool>(false)
        let readerRounds = Atomic<Int>(0)
        let group = DispatchGroup()

        let writer = Thread {
            defer { writerDone.store(true, ordering: .sequentiallyConsistent); group.leave() }
            do {
                let store = try LibraryStore(directory: directory, timeZone: F.utc)
                for number in 0..<25 {
                    try F.save(store, id: "w\(number)", createdAt: F.t0.addingTimeInterval(Double(number)),
                               name: "Written \(number)", segments: [F.segment("segment number \(number)", 0, 1)], seconds: 0.05)
                }
            } catch {
                errors.withLock { $0.append("writer: \(error)") }
            }
        }
        let reader = Thread {
            defer { group.leave() }
            do {
                let store = try LibraryStore(directory: directory, timeZone: F.utc)
                var round = 0
                while !writerDone.load(ordering: .sequentiallyConsistent) || round < 3 {
                    round += 1
                    _ = try store.list()
                    _ = try store.hits("segment")
                    try store.rename("base", to: "Renamed \(round)")
                    try store.setTags("base", ["round\(round)"])
                }
                readerRounds.store(round, ordering: .sequentiallyConsistent)
            } catch {
                errors.withLock { $0.append("reader: \(error)") }
            }
        }
        group.enter()
        group.enter()
        writer.start()
        reader.start()
        group.wait()

        #expect(errors.withLock { $0 } == [])
        let store = try F.store(home)
        let rounds = readerRounds.load(ordering: .sequentiallyConsistent)
        #expect(try store.list().count == 26)
        #expect(try store.resolve("base").name == "Renamed \(rounds)")
        #expect(try store.resolve("base").tags == ["round\(rounds)"])
        #expect(try store.hits("segment").count == 25)
        let database = try SQLiteDatabase(path: home.url.appendingPathComponent("library.sqlite").path)
        #expect(try database.query("PRAGMA integrity_check") { $0.text(0) } == ["ok"])
        #expect(try database.query("INSERT INTO documents(documents) VALUES ('integrity-check')") { _ in 0 } == [])
    }

    @Test("a change waits for another connection's write transaction instead of failing with SQLITE_BUSY")
    func waitsForWriter() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try F.save(try F.store(home), id: "a", name: "Before")
        let blocker = try SQLiteDatabase(path: home.url.appendingPathComponent("library.sqlite").path)
        try blocker.execute("BEGIN IMMEDIATE")
        let directory = home.url
        let outcome = Mutex<String>("")
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        Thread {
            do {
                try LibraryStore(directory: directory, timeZone: F.utc).rename("a", to: "After")
                outcome.withLock { $0 = "renamed after \(Date().timeIntervalSince(started) >= 0.3)" }
            } catch {
                outcome.withLock { $0 = "failed: \(error)" }
            }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.4)
        // A reader is not blocked by the pending write.
        #expect(try F.store(home).list().map(\.name) == ["Before"])
        try blocker.execute("COMMIT")
        done.wait()
        #expect(outcome.withLock { $0 } == "renamed after true")
        #expect(try F.store(home).list().map(\.name) == ["After"])
    }
}
