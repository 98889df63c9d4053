import Foundation
@testable import LiveTranscriberCore
@testable import LiveTranscriberStore

/// A hand-edited or damaged `metadata.json` (the input) read as the store reads it, written back,
/// indexed, listed and exported: never a trap; what is written back reads as the same recording.
private let index = try! LibraryIndex(inMemory: ())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard var recording = try? JSONDecoder.liveTranscriber.decode(Recording.self, from: data) else { return 0 }
    recording.id = "20260101-000000-abcd"
    guard let written = try? JSONEncoder.liveTranscriber.encode(recording) else {
        fuzzCheck(false, "a recording that was read cannot be written: \(recording)")
        return 0
    }
    let again = try? JSONDecoder.liveTranscriber.decode(Recording.self, from: written)
    fuzzCheck(again == recording, "written back it reads as \(String(describing: again)), not \(recording)")
    let segments = [TranscriptSegment(text: "fuzz words", startSeconds: 0, endSeconds: 1)]
    for format in ExportFormat.allCases {
        _ = TranscriptExporter().export(recording: recording, segments: segments, format: format)
    }
    _ = Recording.duration(recording.durationSeconds, audioSeconds: 1)
    do {
        try index.upsert(recording, segments: segments)
        _ = try index.recordings(ListRequest())
        try index.remove(id: recording.id)
    } catch {
        fuzzCheck(false, "the index refused a recording that was read: \(error)")
    }
    return 0
}
