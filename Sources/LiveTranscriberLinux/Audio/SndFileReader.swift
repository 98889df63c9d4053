import CSndFile
import Foundation
import LiveTranscriberCore

/// Reads any audio file libsndfile decodes (WAV in all its sample formats, FLAC, Ogg Vorbis and
/// Opus, MP3, AIFF, …) as interleaved floating-point frames.
public final class SndFileReader: AudioSource {
    private let handle: OpaquePointer
    private let path: String
    public let format: AudioFormat
    public let totalFrames: Int?
    /// True when the samples are stored as 16-bit integers (WAV, RF64, FLAC…): `readInt16` then
    /// gives them exactly as stored.
    let storesInt16: Bool
    /// True for MPEG audio (MP3), whose stated length libsndfile may have estimated (`MP3Reader`).
    public let isMPEG: Bool
    /// Ogg Opus or Ogg Vorbis, which libsndfile reads only to the end of the first link of a
    /// chained file (`OpusFileReader`, `VorbisFileReader`); nil for anything else.
    public let oggCodec: OggCodec?
    /// Set when the file's WAV header was never finished (see `RepairedWAVInput`): the layout it
    /// was read with. The file on disk is not changed.
    public let repairedHeader: WAVLayout?
    /// Keeps the virtual I/O of a repaired header alive as long as the handle.
    private let repairedInput: RepairedWAVInput?

    /// Opens `path` for reading.
    ///
    /// - Throws: `AudioFileError.notFound` when there is no file, `.unreadable` when it cannot be
    ///   opened, `.noAudio` when it is empty or a WAV header with no audio after it,
    ///   `.unsupportedFormat` when libsndfile does not recognise its contents,
    ///   `.unsupportedSampleRate` when it states a rate outside `AudioFormat.supportedSampleRates`
    ///   (a WAV stating 0 Hz, which libsndfile refuses to open, included).
    public init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioFileError.notFound(path: path)
        }
        if isDirectory.boolValue { throw AudioFileError.unreadable(path: path, reason: "it is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioFileError.unreadable(path: path, reason: "permission denied")
        }
        var info = SF_INFO()
        // A WAV header a crashed writer never finished says "no audio": read what follows it.
        let repaired = RepairedWAVInput(path: path)
        let opened = repaired.map { $0.openSndFile(&info) } ?? sf_open(path, Int32(SFM_READ), &info)
        guard let handle = opened else {
            let reason = String(cString: sf_strerror(nil))
            // libsndfile refuses a WAV header stating 0 Hz with "SF_INFO struct incomplete": say the rate.
            if let rate = Self.statedWAVRate(path), !AudioFormat.supportedSampleRates.contains(rate) {
                throw AudioFileError.unsupportedSampleRate(path: path, rate: rate)
            }
            throw Self.noAudioReason(path).map { AudioFileError.noAudio(path: path, reason: $0) }
                ?? AudioFileError.unsupportedFormat(path: path, reason: reason)
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            throw AudioFileError.unsupportedFormat(path: path, reason: "no channels or no sample rate")
        }
        guard AudioFormat.supportedSampleRates.contains(Int(info.samplerate)) else {
            sf_close(handle)
            throw AudioFileError.unsupportedSampleRate(path: path, rate: Int(info.samplerate))
        }
        self.handle = handle
        self.path = path
        self.repairedInput = repaired
        self.repairedHeader = repaired?.layout
        self.format = AudioFormat(sampleRate: Int(info.samplerate), channels: Int(info.channels))
        // An unfinished header (a FLAC whose writer was killed) states no length: nil, never 2^63 frames.
        self.totalFrames = AudioFileMeasure.statedFrames(info.frames)
        self.storesInt16 = info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        self.isMPEG = info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_MPEG)
        self.oggCodec = info.format & Int32(SF_FORMAT_TYPEMASK) != Int32(SF_FORMAT_OGG) ? nil
            : OggCodec(libsndfileSubtype: info.format & Int32(SF_FORMAT_SUBMASK))
    }

    deinit { sf_close(handle) }

    /// Why a file libsndfile refused holds no audio, when that is what is wrong with it: it is
    /// empty, or it is a WAV (RIFF or RF64) header with no `data` chunk (the header a writer puts
    /// first, cut off before any audio). Nil for anything else, which is then not audio we read.
    static func noAudioReason(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else { return nil }
        defer { try? handle.close() }
        if size == 0 { return "the file is empty (0 bytes)" }
        do {
            _ = try wavPlan(handle, fileSize: size)
        } catch WAVRepairError.missingData {
            // Only a header whose chunks end exactly at the end of the file: anything else is damage.
            guard chunksEndTogether(handle, fileSize: size) else { return nil }
            return "it is a WAV header with no audio after it (\(size) bytes, no 'data' chunk)"
        } catch {}  // not WAV, or damaged some other way: not a question of missing audio
        return nil
    }

    /// The sample rate (Hz) a WAV (RIFF or RF64) file's `fmt ` chunk states, when it has one and a
    /// `data` chunk; nil for anything else. Reads only chunk headers and the `fmt ` body.
    static func statedWAVRate(_ path: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else { return nil }
        defer { try? handle.close() }
        return (try? wavPlan(handle, fileSize: size))?.layout.sampleRate
    }

    /// The WAV chunk layout of the open file. Throws `WAVRepairError` when it is not WAV or lacks a chunk.
    private static func wavPlan(_ handle: FileHandle, fileSize: UInt64) throws -> WAVRepairPlan {
        try WAVHeaderRepair.plan(fileSize: fileSize, read: { offset, count in
            try handle.seek(toOffset: offset)
            return try handle.read(upToCount: count) ?? Data()
        })
    }

    /// True when the chunks after the 12-byte RIFF header follow each other up to exactly the end
    /// of the file (sizes padded to even), as a header cut off before its `data` chunk leaves them.
    private static func chunksEndTogether(_ handle: FileHandle, fileSize: UInt64) -> Bool {
        var offset: UInt64 = 12
        while offset + 8 <= fileSize {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 8), header.count == 8 else { return false }
            let size = header.dropFirst(4).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            offset += 8 + size + (size & 1)
        }
        return offset == fileSize
    }

    /// The layout `path` will be read with when its WAV (or RF64) header was never finished;
    /// nil for a finished header or another format. Reads only chunk headers.
    public static func unfinishedWAVHeader(at path: String) -> WAVLayout? {
        RepairedWAVInput.unfinishedHeader(at: path)?.layout
    }

    /// Reads up to `buffer.count / channels` frames as interleaved 16-bit integers into `buffer`.
    /// Exact for `storesInt16` files.
    /// - Returns: frames read; 0 at the end of the file.
    /// - Throws: `AudioFileError.readFailed`.
    func readInt16(into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        let read = sf_readf_short(handle, buffer.baseAddress, sf_count_t(buffer.count / format.channels))
        if read < 0 || (read == 0 && sf_error(handle) != 0) {
            throw AudioFileError.readFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
        return Int(read)
    }

    public func read(maxFrames: Int) throws -> AudioBuffer? {
        var samples = [Float](repeating: 0, count: maxFrames * format.channels)
        let read = samples.withUnsafeMutableBufferPointer { buffer in
            sf_readf_float(handle, buffer.baseAddress, sf_count_t(maxFrames))
        }
        if read < 0 || sf_error(handle) != 0 {
            let reason = String(cString: sf_strerror(handle))
            if read <= 0 { throw AudioFileError.readFailed(path: path, reason: reason) }
        }
        guard read > 0 else { return nil }
        samples.removeSubrange(Int(read) * format.channels..<samples.count)
        return AudioBuffer(samples: samples, channels: format.channels)
    }
}

/// The codecs in an Ogg file that have a reader of their own for chained files.
public enum OggCodec: Equatable, Sendable {
    case opus, vorbis

    /// From libsndfile's subtype of an `SF_FORMAT_OGG` file; nil for FLAC and Speex in Ogg.
    init?(libsndfileSubtype subtype: Int32) {
        switch subtype {
        case Int32(SF_FORMAT_OPUS): self = .opus
        case Int32(SF_FORMAT_VORBIS): self = .vorbis
        default: return nil
        }
    }
}
