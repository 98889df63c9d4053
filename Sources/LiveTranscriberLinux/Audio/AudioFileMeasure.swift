import CSndFile
import Foundation
import LiveTranscriberCore

/// How much audio a file really holds, whatever its header says.
///
/// A recorder killed mid-way leaves a header that was never finished: a WAV or RF64 `data` size of
/// 0 or of the last update, a FLAC STREAMINFO whose total-samples field is still 0 (libsndfile then
/// reports `SF_COUNT_MAX` frames, 2^63 − 1, which is 576,460,752,303,423 s at 16 kHz). Durations
/// and frame counts come from here, never from such a header.
public enum AudioFileMeasure {
    /// The audio in a file.
    public typealias Measurement = AudioFileMeasurement

    /// Repairs the header of a file left by a crash and returns the audio it really holds.
    ///
    /// WAV and RF64: the sizes are rewritten from the bytes present (`WAVFileRepair`, no audio is
    /// read). Anything else libsndfile reads (FLAC, Ogg Opus, …): every frame is decoded and
    /// counted; a FLAC header whose total-samples field is unset gets the count written into it,
    /// so every later reader sees the right length.
    /// - Returns: nil when the file is not audio libsndfile can read.
    /// - Complexity: WAV reads only chunk headers; other formats decode the whole file.
    public static func measure(_ url: URL) -> Measurement? {
        if let plan = try? WAVFileRepair.repair(url) { return plan.layout.measurement }
        guard let counted = countFrames(url) else { return nil }
        if counted.majorFormat == Int32(SF_FORMAT_FLAC) {
            try? FLACHeader.setTotalSamples(UInt64(counted.measurement.frames), in: url)
        }
        return counted.measurement
    }

    /// Decodes the whole file and counts its frames (libsndfile's header count is not trusted).
    static func countFrames(_ url: URL) -> (measurement: Measurement, majorFormat: Int32)? {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else { return nil }
        defer { sf_close(file) }
        guard info.samplerate > 0, info.channels > 0 else { return nil }
        let block = 16_384
        var buffer = [Float](repeating: 0, count: block * Int(info.channels))
        var frames: Int64 = 0
        while true {
            let read = buffer.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(block)) }
            guard read > 0 else { break }
            frames += Int64(read)
        }
        return (Measurement(sampleRate: Int(info.samplerate), channels: Int(info.channels), frames: frames),
                info.format & Int32(SF_FORMAT_TYPEMASK))
    }

    /// Seconds of audio the file's header states (no decoding), or nil when it states none.
    public static func statedSeconds(_ url: URL) -> Double? {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else { return nil }
        defer { sf_close(file) }
        guard info.samplerate > 0, let frames = statedFrames(info.frames) else { return nil }
        return Double(frames) / Double(info.samplerate)
    }

    /// The frame count a libsndfile header states, or nil when it does not know it: negative, 0
    /// with a stream that may hold audio, or `SF_COUNT_MAX` and its like (an unfinished FLAC
    /// header, a pipe). Anything at or above 2^62 frames (over 3 million years at 48 kHz) is taken
    /// as unknown.
    public static func statedFrames(_ frames: sf_count_t) -> Int? {
        guard frames > 0, frames < (1 << 62) else { return nil }
        return Int(frames)
    }
}

/// The STREAMINFO block of a FLAC file (the first metadata block, at byte 8).
enum FLACHeader {
    /// Writes `total` into STREAMINFO's 36-bit total-samples field when it is 0 (unknown), as a
    /// killed encoder leaves it. A field already set is left alone.
    static func setTotalSamples(_ total: UInt64, in url: URL) throws {
        guard total < (1 << 36) else { return }
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        guard let head = try handle.read(upToCount: 26), head.count == 26 else { return }
        let bytes = [UInt8](head)
        // "fLaC", then a metadata block header whose type (low 7 bits) is 0, STREAMINFO.
        guard bytes[0..<4] == [0x66, 0x4C, 0x61, 0x43], bytes[4] & 0x7F == 0 else { return }
        // Total samples: the low 4 bits of byte 21, then bytes 22…25.
        let current = UInt64(bytes[21] & 0x0F) << 32 | UInt64(bytes[22]) << 24 | UInt64(bytes[23]) << 16
            | UInt64(bytes[24]) << 8 | UInt64(bytes[25])
        guard current == 0, total > 0 else { return }
        let patched: [UInt8] = [
            bytes[21] & 0xF0 | UInt8(total >> 32 & 0x0F),
            UInt8(total >> 24 & 0xFF), UInt8(total >> 16 & 0xFF), UInt8(total >> 8 & 0xFF), UInt8(total & 0xFF),
        ]
        try handle.seek(toOffset: 21)
        try handle.write(contentsOf: Data(patched))
        try handle.synchronize()
    }
}

/// The store's audio reader on Linux (`AudioFileMeasuring`): `AudioFileMeasure` over libsndfile.
public struct SndFileAudioMeasure: AudioFileMeasuring {
    public init() {}
    public func measure(_ url: URL) -> AudioFileMeasurement? { AudioFileMeasure.measure(url) }
    public func statedSeconds(_ url: URL) -> Double? { AudioFileMeasure.statedSeconds(url) }
    public func contentDigest(_ url: URL) -> String? { try? AudioDigest.of(path: url.path) }
}

extension LibraryStore {
    /// Opens the library in `directory` with libsndfile as its audio reader (see
    /// `init(directory:timeZone:audioMeasure:)`).
    /// - Throws: `FileSystemError` or `SQLiteError` when the directory is not usable.
    public convenience init(directory: URL, timeZone: @autoclosure @escaping @Sendable () -> TimeZone = .current) throws {
        try self.init(directory: directory, timeZone: timeZone(), audioMeasure: SndFileAudioMeasure())
    }
}
