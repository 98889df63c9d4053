import Foundation
@testable import LiveTranscriberCore
@testable import LiveTranscriberStore

/// The RIFF/RF64 chunk walk and crash repair (`WAVHeaderRepair`) and the store's length rule
/// (`WAVFileLength`) on any bytes: never a trap; a repaired file is healthy when planned again,
/// with the same audio, and the length rule agrees with the repair.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAVHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let read: (UInt64, Int) throws -> Data = { offset, length in
        let from = Int(min(offset, UInt64(data.count)))
        return data.subdata(in: from..<min(data.count, from + length))
    }
    let seconds = WAVFileLength.seconds(fileSize: UInt64(data.count), read: read)
    guard let (repaired, layout) = try? WAVHeaderRepair.repair(data) else {
        fuzzCheck(seconds == nil, "a length for a file the repair rejects")
        return 0
    }
    _ = layout.headerWasUnfinished(fileSize: UInt64(data.count))
    _ = layout.declaredSeconds
    _ = layout.unfinishedHeaderStatement
    fuzzCheck(layout.dataOffset + layout.dataSize <= UInt64(repaired.count), "data past the repaired file's end")
    if layout.isUncompressed, layout.sampleRate > 0 {
        fuzzCheck(seconds == layout.durationSeconds, "length rule \(String(describing: seconds)) != repair \(layout.durationSeconds)")
    }
    do {
        let again = try WAVHeaderRepair.plan(fileSize: UInt64(repaired.count)) { offset, length in
            let from = Int(min(offset, UInt64(repaired.count)))
            return repaired.subdata(in: from..<min(repaired.count, from + length))
        }
        guard case .healthy(let second) = again else {
            fuzzCheck(false, "a repaired file needs another repair: \(again)")
            return 0
        }
        fuzzCheck(second.dataSize == layout.dataSize && second.dataOffset == layout.dataOffset,
                  "repair changed the audio on a second pass: \(layout) then \(second)")
    } catch {
        fuzzCheck(false, "a repaired file is no longer WAV: \(error)")
    }
    return 0
}
