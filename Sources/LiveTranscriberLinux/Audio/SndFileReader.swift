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
    /// Set when the file's WAV header was never finished (see `RepairedWAVInput`): the layout it
    /// was read with. The file on disk is not changed.
    public let repairedHeader: WAVLayout?
    /// Keeps the virtual I/O of a repaired header alive as long as the handle.
    private let repairedInput: RepairedWAVInput?

    /// Opens `path` for reading.
    ///
    /// - Throws: `AudioFileError.notFound` when there is no file, `.unreadable` when it cannot be
    ///   opened, `.unsupportedFormat` when libsndfile does not recognise its contents.
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
            throw AudioFileError.unsupportedFormat(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            throw AudioFileError.unsupportedFormat(path: path, reason: "no channels or no sample rate")
        }
        self.handle = handle
        self.path = path
        self.repairedInput = repaired
        self.repairedHeader = repaired?.layout
        self.format = AudioFormat(sampleRate: Int(info.samplerate), channels: Int(info.channels))
        // An unfinished header (a FLAC whose writer was killed) states no length: nil, never 2^63 frames.
        self.totalFrames = AudioFileMeasure.statedFrames(info.frames)
    }

    deinit { sf_close(handle) }

    /// The layout `path` will be read with when its WAV (or RF64) header was never finished;
    /// nil for a finished header or another format. Reads only chunk headers.
    public static func unfinishedWAVHeader(at path: String) -> WAVLayout? {
        RepairedWAVInput.unfinishedHeader(at: path)?.layout
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
