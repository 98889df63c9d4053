import Foundation
import LiveTranscriberCore

// TEMPORARY minimal store so `record` can be built and tried; replaced by the library branch.

public struct RecordingDraft: Sendable, Equatable {
    public var id: String
    public var folder: URL
    public var audioFile: URL
    public var createdAt: Date
    public var language: String
    public var audio: AudioDescription
}

public final class LibraryStore: RecordingStore {
    public let directory: URL
    private let fileManager = FileManager.default

    public init(directory: URL) throws {
        self.directory = directory
        try fileManager.createDirectory(at: directory.appendingPathComponent("recordings"), withIntermediateDirectories: true)
        try fileManager.createDirectory(at: directory.appendingPathComponent("drafts"), withIntermediateDirectories: true)
    }

    public static func newRecordingID(date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date) + "-" + String(UUID().uuidString.prefix(4)).lowercased()
    }

    public func createDraft(id: String, createdAt: Date, language: String, audio: AudioDescription) throws -> RecordingDraft {
        let folder = directory.appendingPathComponent("drafts/\(id)", isDirectory: true)
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        return RecordingDraft(id: id, folder: folder, audioFile: folder.appendingPathComponent("audio.\(audio.format)"),
                              createdAt: createdAt, language: language, audio: audio)
    }

    public func appendToJournal(_ segment: TranscriptSegment, draft: RecordingDraft) throws {
        let url = draft.folder.appendingPathComponent("journal.jsonl")
        if !fileManager.fileExists(atPath: url.path) { fileManager.createFile(atPath: url.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        var line = try JSONEncoder().encode(segment)
        line.append(0x0A)
        try handle.write(contentsOf: line)
        try handle.synchronize()
    }

    public func saveDraft(_ draft: RecordingDraft, name: String?, tags: [String], location: RecordingLocation?,
                          durationSeconds: Double, segments: [TranscriptSegment]) throws -> Recording {
        let recording = Recording(id: draft.id, name: name ?? "Recording \(draft.id)", createdAt: draft.createdAt,
                                  durationSeconds: durationSeconds, language: draft.language, tags: tags,
                                  audio: draft.audio, location: location)
        try JSONEncoder.liveTranscriber.encode(recording).write(to: draft.folder.appendingPathComponent("metadata.json"), options: .atomic)
        try JSONEncoder.liveTranscriber.encode(segments).write(to: draft.folder.appendingPathComponent("transcript.json"), options: .atomic)
        try fileManager.moveItem(at: draft.folder, to: directory.appendingPathComponent("recordings/\(draft.id)"))
        return recording
    }

    public func discardDraft(_ draft: RecordingDraft) throws {
        try fileManager.removeItem(at: draft.folder)
    }

    public func recoverDrafts() throws -> [Recording] { [] }

    public func list() throws -> [Recording] {
        let folders = (try? fileManager.contentsOfDirectory(atPath: directory.appendingPathComponent("recordings").path)) ?? []
        return try folders.map { try recording(id: $0) }.sorted { $0.createdAt > $1.createdAt }
    }

    private func recording(id: String) throws -> Recording {
        let data = try Data(contentsOf: directory.appendingPathComponent("recordings/\(id)/metadata.json"))
        return try JSONDecoder.liveTranscriber.decode(Recording.self, from: data)
    }

    public func resolve(_ reference: String) throws -> Recording {
        let all = try list()
        if reference == "latest", let first = all.first { return first }
        let matches = all.filter { $0.id.hasPrefix(reference) }
        guard let first = matches.first else { throw LibraryError.notFound(reference) }
        return first
    }

    public func transcript(of id: String) throws -> [TranscriptSegment] {
        let data = try Data(contentsOf: directory.appendingPathComponent("recordings/\(id)/transcript.json"))
        return try JSONDecoder().decode([TranscriptSegment].self, from: data)
    }

    public func audioFile(of id: String) throws -> URL {
        let recording = try recording(id: id)
        return directory.appendingPathComponent("recordings/\(id)/audio.\(recording.audio.format)")
    }

    public func update(_ recording: Recording) throws {}
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws {}
    public func restorePreviousTranscript(of id: String) throws -> Bool { false }
}
