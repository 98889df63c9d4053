import Foundation
@testable import LiveTranscriberCore
@testable import LiveTranscriberStore

/// Crash recovery of a draft whose `draft.json` and `journal.jsonl` hold any bytes (the input is
/// `draft.json`, a NUL byte, then the journal): never a trap, and every journal line that reads
/// as a segment is in the recovered recording's transcript.
private struct NoAudio: AudioFileMeasuring {
    func measure(_ url: URL) -> AudioFileMeasurement? { nil }
    func statedSeconds(_ url: URL) -> Double? { nil }
    func contentDigest(_ url: URL) -> String? { nil }
}

/// One library for the whole run (opening one per input costs more than the recovery): each
/// input becomes a draft, is recovered, and its recording is deleted again.
private let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fuzz-draft-\(getpid())")
private let store = try! LibraryStore(directory: home, timeZone: TimeZone(identifier: "UTC")!, audioMeasure: NoAudio())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDraftRecovery(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let manifest = bytes[..<split]
    let journal = split < bytes.endIndex ? bytes[(split + 1)...] : Data()
    // The journal reader alone, as `recover` reads it.
    let segments = LibraryDrafts.readJournal(data: Data(journal))
    _ = try? JSONDecoder.liveTranscriber.decode(DraftManifest.self, from: Data(manifest))

    let id = "20260101-000000-abcd"
    let draft = home.appendingPathComponent("drafts/\(id)")
    let saved = home.appendingPathComponent("recordings/\(id)")
    defer {
        try? store.delete(id, purge: true)
        try? FileManager.default.removeItem(at: draft)
        try? FileManager.default.removeItem(at: saved)
    }
    do {
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        try Data(manifest).write(to: draft.appendingPathComponent(LibraryLayout.draftManifest))
        try Data(journal).write(to: draft.appendingPathComponent(LibraryLayout.journal))
        let recovered = try store.recoverDrafts()
        guard !segments.isEmpty else { return 0 }
        fuzzCheck(recovered.map(\.id) == [id] || store.recoveryProblems[id] != nil,
                  "a journal with \(segments.count) segments neither recovered nor reported")
        if recovered.map(\.id) == [id] {
            let transcript = try store.transcript(of: id)
            fuzzCheck(transcript.count == segments.count, "recovered \(transcript.count) of \(segments.count) journaled segments")
            _ = try store.resolve(id)
        }
    } catch {
        // A failure to save may be reported as an error; the draft must still be there.
        if !segments.isEmpty {
            fuzzCheck(FileManager.default.fileExists(atPath: draft.path) || FileManager.default.fileExists(atPath: saved.path),
                      "recovery failed (\(error)) and the draft is gone")
        }
    }
    return 0
}
