import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport

/// A fresh folder under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = try TestFolders.make("lt-library")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

enum LibraryFixtures {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2026-11-29 20:41:12 UTC.
    static let t0 = Date(timeIntervalSince1970: 1_795_984_872)
    static let mono16k = AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)

    static func store(_ directory: TemporaryDirectory) throws -> LibraryStore {
        try LibraryStore(directory: directory.url, timeZone: utc)
    }

    /// Saves a recording the way `record` does: draft, a real WAV of `seconds` at 16 kHz mono, save.
    @discardableResult
    static func save(
        _ store: LibraryStore, id: String, createdAt: Date = t0, name: String? = nil, tags: [String] = [],
        language: String = "en-US", segments: [TranscriptSegment] = [], seconds: Double = 1
    ) throws -> Recording {
        let draft = try store.createDraft(id: id, createdAt: createdAt, language: language, audio: mono16k)
        try WAVFixture.make(audio: WAVFixture.silence(bytes: Int(seconds * 32_000))).write(to: draft.audioFile)
        for segment in segments { try store.appendToJournal(segment, draft: draft) }
        return try store.saveDraft(draft, name: name, tags: tags, location: nil, durationSeconds: seconds, segments: segments)
    }

    static func segment(_ text: String, _ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: text, startSeconds: start, endSeconds: end)
    }

    static func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

extension RecordingStore {
    /// Every place that matches `text`, recording by recording as search ranks them (up to 50
    /// recordings and 50 places each): the flat list earlier search tests were written against.
    func hits(_ text: String) throws -> [SearchHit] {
        try search(SearchRequest(text, limit: 50, placesPerRecording: 50)).flatMap(\.hits)
    }
}
