import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Synchronization
import Testing

/// Stands in for `NSFileCoordinator` (an Apple framework): records each coordinated access,
/// relative to the library, and can refuse writes as a coordinator that timed out would.
final class RecordingFileCoordinator: FileCoordinating {
    struct Refused: Error, Equatable {}
    let root: URL
    let refusesWrites: Bool
    private let log = Mutex<[String]>([])

    init(root: URL, refusesWrites: Bool = false) {
        self.root = root.resolvingSymlinksInPath()
        self.refusesWrites = refusesWrites
    }

    var accesses: [String] { log.withLock { $0 } }
    func clear() { log.withLock { $0 = [] } }

    private func relative(_ url: URL) -> String {
        let path = url.resolvingSymlinksInPath().path
        return path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
    }

    func coordinateReading<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        log.withLock { $0.append("read \(relative(url))") }
        return try body()
    }

    func coordinateWriting<T>(_ url: URL, _ intent: FileWriteIntent, _ body: () throws -> T) throws -> T {
        switch intent {
        case .replacing: log.withLock { $0.append("write \(relative(url))") }
        case .moving(let destination): log.withLock { $0.append("move \(relative(url)) -> \(relative(destination))") }
        }
        if refusesWrites { throw Refused() }
        return try body()
    }
}

@Suite("LibraryStore: coordinated files and reindexing what changed")
struct LibraryCoordinationTests {
    typealias F = LibraryFixtures
    static let id = "20261129-204112-c0de"

    static func store(_ home: TemporaryDirectory, _ coordinator: RecordingFileCoordinator) throws -> LibraryStore {
        try LibraryStore(directory: home.url, timeZone: F.utc, audioMeasure: SndFileAudioMeasure(), fileCoordinator: coordinator)
    }

    @Test("saving, renaming, replacing a transcript and deleting each coordinate the recording's folder; reads coordinate its files")
    func everyAccessCoordinated() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let coordinator = RecordingFileCoordinator(root: home.url)
        let store = try Self.store(home, coordinator)
        let folder = "recordings/\(Self.id)"
        try F.save(store, id: Self.id, name: "Standup", segments: [F.segment("hello", 0, 1)])
        #expect(coordinator.accesses == ["move drafts/\(Self.id) -> \(folder)", "write \(folder)"])
        coordinator.clear()
        try store.rename(Self.id, to: "Retro")
        #expect(coordinator.accesses == ["read \(folder)/metadata.json", "read \(folder)/transcript.json", "write \(folder)"])
        coordinator.clear()
        try store.replaceTranscript(of: Self.id, with: [F.segment("hi", 0, 1)])
        #expect(coordinator.accesses == ["read \(folder)/metadata.json", "write \(folder)"])
        coordinator.clear()
        #expect(try store.transcript(of: Self.id).map(\.text) == ["hi"])
        #expect(coordinator.accesses == ["read \(folder)/transcript.json"])
        coordinator.clear()
        try store.delete(Self.id)
        #expect(coordinator.accesses == ["move \(folder) -> trash/\(Self.id)"])
    }

    @Test("a coordinator that refuses a write fails the change, and nothing changes: files and index as before")
    func refusedWriteChangesNothing() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let saved = try F.save(try F.store(home), id: Self.id, name: "Standup", segments: [F.segment("hello", 0, 1)])
        let store = try Self.store(home, RecordingFileCoordinator(root: home.url, refusesWrites: true))
        #expect(throws: RecordingFileCoordinator.Refused.self) { try store.rename(Self.id, to: "Retro") }
        #expect(throws: RecordingFileCoordinator.Refused.self) { try store.delete(Self.id) }
        #expect(try store.list() == [saved])
        #expect(try F.store(home).list() == [saved])
        try F.store(home).reindex()
        #expect(try F.store(home).list() == [saved])
    }

    @Test("reindex(ids:) takes a renamed recording from its folder, drops a removed one, and keeps one it cannot read")
    func reindexWhatChanged() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let ids = ["20261129-204112-0001", "20261129-204112-0002", "20261129-204112-0003"]
        for id in ids { try F.save(store, id: id, name: "Take \(id.suffix(1))", segments: [F.segment("words \(id.suffix(1))", 0, 1)]) }
        // Another device renamed 1 and retranscribed it, removed 2, and 3's metadata arrived damaged.
        let recordings = home.url.appendingPathComponent("recordings")
        var renamed = try store.resolve(ids[0])
        renamed.name = "Renamed on the iPhone"
        try JSONEncoder.liveTranscriber.encode(renamed).write(to: recordings.appendingPathComponent("\(ids[0])/metadata.json"))
        try JSONEncoder.liveTranscriber.encode([F.segment("fresh text", 0, 1)])
            .write(to: recordings.appendingPathComponent("\(ids[0])/transcript.json"))
        try FileManager.default.removeItem(at: recordings.appendingPathComponent(ids[1]))
        try Data("{".utf8).write(to: recordings.appendingPathComponent("\(ids[2])/metadata.json"))

        let result = try store.reindex(ids: Set(ids + ["../escape"]))
        #expect(result.indexed == 1)
        #expect(result.unreadable.map(\.id) == [ids[2]])
        #expect(try store.list().map(\.name) == ["Take 3", "Renamed on the iPhone"])
        #expect(try store.hits("fresh").count == 1)
        #expect(try store.hits("words").map(\.recordingID) == [ids[2]])
    }

    @Test("recordings in a shared folder, index, drafts and trash on the device: save, delete and a folder arriving from elsewhere")
    func recordingsElsewhere() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let device = home.url.appendingPathComponent("Device")
        let shared = home.url.appendingPathComponent("Cloud/Library/recordings")
        func open() throws -> LibraryStore {
            try LibraryStore(directory: device, timeZone: F.utc, audioMeasure: SndFileAudioMeasure(), recordingsFolder: shared)
        }
        let store = try open()
        try F.save(store, id: Self.id, name: "Standup", segments: [F.segment("hello", 0, 1)])
        #expect(F.files(in: shared) == [Self.id])
        #expect(F.files(in: shared.appendingPathComponent(Self.id)) == ["audio.wav", "metadata.json", "transcript.json"])
        #expect(F.files(in: device) == ["drafts", "library.generation", "library.lock", "library.sqlite", "library.sqlite-shm",
                                        "library.sqlite-wal", "trash"].filter { F.files(in: device).contains($0) })
        #expect(!F.files(in: device).contains("recordings"))
        #expect(F.files(in: home.url.appendingPathComponent("Cloud/Library")) == ["recordings"])  // no index is shared
        // Another device's recording arrives in the shared folder: the sync policy's reindex takes it.
        let other = "20261129-204112-0ther"
        try FileManager.default.copyItem(at: shared.appendingPathComponent(Self.id), to: shared.appendingPathComponent(other))
        #expect(try store.reindex(ids: [other]).indexed == 1)
        #expect(try store.list().map(\.id).sorted() == [other, Self.id])
        #expect(try open().list().map(\.id).sorted() == [other, Self.id])
        try open().delete(Self.id)
        #expect(F.files(in: shared) == [other])
        #expect(F.files(in: device.appendingPathComponent("trash")) == [Self.id])
    }
}
