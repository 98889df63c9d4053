import CSndFile
import Glibc
import Foundation
import LiveTranscriberCore

extension RecordingAudioFormat {
    /// libsndfile's `SF_FORMAT_*` for the format; nil for M4A, which libsndfile cannot write
    /// (`AudioFormatSupport.libsndfile`).
    var libsndfileFormat: Int32? {
        switch self {
        case .wav: return Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_16)
        case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .m4a: return nil
        }
    }
}

/// Writes a recording's original audio with libsndfile, keeping the header valid as it grows.
public final class SndFileWriter: AudioFileWriter {
    private var handle: OpaquePointer?
    private let path: String
    /// True for `.wav`: on close, a mono or stereo 16-bit file gets a plain PCM `fmt ` chunk.
    private let plainPCMOnClose: Bool
    public let format: AudioFormat
    public private(set) var framesWritten = 0

    /// Creates (or truncates) `path`.
    /// - Throws: `AudioFormatUnsupported` for M4A (nothing is created); `AudioFileError.writeFailed`
    ///   with libsndfile's reason.
    public convenience init(path: String, format: AudioFormat, fileFormat: RecordingAudioFormat) throws {
        try AudioFormatSupport.libsndfile.checkWritable(fileFormat)
        guard let libsndfileFormat = fileFormat.libsndfileFormat else { preconditionFailure("checked writable above") }
        try self.init(path: path, format: format, libsndfileFormat: libsndfileFormat, name: fileFormat.rawValue,
                      downgradeRF64: fileFormat == .wav)
    }

    /// Writes any format libsndfile can write (`SF_FORMAT_*` major | subtype), for tests and tools.
    /// - Parameter downgradeRF64: For RF64: write plain WAV while the file stays under 4 GiB.
    init(path: String, format: AudioFormat, libsndfileFormat: Int32, name: String, downgradeRF64: Bool = false) throws {
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate)
        info.channels = Int32(format.channels)
        info.format = libsndfileFormat
        guard sf_format_check(&info) != 0 else {
            throw AudioFileError.writeFailed(path: path, reason: "\(name) cannot store \(format.sampleRate) Hz, \(format.channels) channels")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError.writeFailed(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Clip out-of-range floats instead of letting them wrap around.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        // RF64 under 4 GiB is written as plain WAV (a JUNK chunk holds the place of `ds64`).
        if downgradeRF64 && libsndfileFormat & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64) {
            sf_command(handle, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE))
        }
        // Ogg (Opus): end a page every 0.5 s of audio instead of libsndfile's 1 s, so a crash
        // loses at most about half a second of what was written (the crash soak lost up to 1.03 s).
        if libsndfileFormat & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_OGG) {
            var milliseconds = Self.oggPageMilliseconds
            sf_command(handle, Int32(SFC_SET_OGG_PAGE_LATENCY_MS), &milliseconds, Int32(MemoryLayout<Double>.size))
        }
        self.handle = handle
        self.path = path
        self.format = format
        plainPCMOnClose = downgradeRF64
    }

    /// The longest stretch of audio an Ogg page holds (ms): what a crash can lose of an Opus file.
    static let oggPageMilliseconds = 500.0

    deinit { if let handle { sf_close(handle) } }

    public func write(_ buffer: AudioBuffer) throws {
        guard let handle else { throw AudioFileError.writeFailed(path: path, reason: "the file is closed") }
        let frames = buffer.frameCount
        let written = buffer.samples.withUnsafeBufferPointer { samples in
            sf_writef_float(handle, samples.baseAddress, sf_count_t(frames))
        }
        guard written == frames else {
            throw AudioFileError.writeFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
        framesWritten += frames
    }

    /// Rewrites the RIFF and data sizes for what is written so far and flushes to disk.
    public func updateHeader() throws {
        guard let handle else { return }
        sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
        sf_write_sync(handle)
    }

    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        if sf_close(handle) != 0 {
            throw AudioFileError.writeFailed(path: path, reason: "closing the file failed")
        }
        if plainPCMOnClose { try writePlainPCMFormat() }
    }

    /// libsndfile writes WAVE_FORMAT_EXTENSIBLE even for mono and stereo 16-bit PCM; the closed
    /// file gets the plain PCM `fmt ` chunk other tools expect (`WAVFormatChunk.plainPCMPatch`).
    /// Done after `sf_close`, which rewrites the header; a draft recovered after a crash keeps the
    /// extensible form, which every WAV reader we know accepts.
    /// - Throws: `AudioFileError.writeFailed` when the patch cannot be written.
    private func writePlainPCMFormat() throws {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw AudioFileError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 256)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 256, 0) }
        guard count > 0, let patch = WAVFormatChunk.plainPCMPatch(header: Array(header.prefix(count))) else { return }
        let written = patch.bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, patch.bytes.count, off_t(patch.offset)) }
        guard written == patch.bytes.count, fsync(descriptor) == 0 else {
            throw AudioFileError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
