import Foundation
import LiveTranscriberCore

/// Applies `WAVHeaderRepair` to a file on disk, reading only chunk headers.
public enum WAVFileRepair {
    /// Rewrites the RIFF and `data` sizes of the WAV file at `url` from the bytes present, and
    /// fsyncs it. A healthy file is not opened for writing and stays byte for byte the same.
    /// - Returns: The plan carried out (`.healthy` when nothing changed).
    /// - Throws: `WAVRepairError` when the file is not WAV; file system errors.
    @discardableResult
    public static func repair(_ url: URL) throws -> WAVRepairPlan {
        let plan = try plan(url)
        guard case .repair(_, let patches, let fileSize) = plan else { return plan }
        let writer = try FileHandle(forUpdating: url)
        defer { try? writer.close() }
        try writer.truncate(atOffset: fileSize)
        for patch in patches {
            try writer.seek(toOffset: patch.offset)
            try writer.write(contentsOf: Data(patch.bytes))
        }
        try writer.synchronize()
        return plan
    }

    /// Plans the repair of the WAV file at `url` (`WAVHeaderRepair.plan`) without changing it:
    /// only its chunk headers are read.
    /// - Throws: `WAVRepairError` when the file is not WAV; file system errors.
    public static func plan(_ url: URL) throws -> WAVRepairPlan {
        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        let size = try reader.seekToEnd()
        return try WAVHeaderRepair.plan(fileSize: size) { offset, count in
            try reader.seek(toOffset: offset)
            return try reader.read(upToCount: count) ?? Data()
        }
    }
}
