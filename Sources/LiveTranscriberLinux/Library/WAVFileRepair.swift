import CSndFile
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
        let reader = try FileHandle(forReadingFrom: url)
        let size = try reader.seekToEnd()
        let plan = try WAVHeaderRepair.plan(fileSize: size) { offset, count in
            try reader.seek(toOffset: offset)
            return try reader.read(upToCount: count) ?? Data()
        }
        try reader.close()
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

    /// Seconds of audio in a file libsndfile can read (FLAC, Opus, WAV), or nil when it cannot tell.
    /// Rate, channels and seconds of any audio file libsndfile reads; nil when it reads none.
    public static func properties(ofAudioFile url: URL) -> (sampleRate: Int, channels: Int, seconds: Double)? {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else { return nil }
        defer { sf_close(file) }
        guard info.samplerate > 0, info.channels > 0 else { return nil }
        return (Int(info.samplerate), Int(info.channels), Double(max(0, info.frames)) / Double(info.samplerate))
    }

    public static func durationSeconds(ofAudioFile url: URL) -> Double? {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else { return nil }
        defer { sf_close(file) }
        guard info.samplerate > 0, info.frames > 0 else { return nil }
        return Double(info.frames) / Double(info.samplerate)
    }
}
