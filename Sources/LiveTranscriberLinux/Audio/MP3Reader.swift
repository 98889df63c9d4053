import CMpg123
import CSndFile
import Foundation
import LiveTranscriberCore

/// Reads an MP3 file to the end of its stream with libmpg123.
///
/// libsndfile reads MP3 through libmpg123 too, but stops at the length it states at opening, which
/// for a VBR file without a Xing (or Info) header is an estimate from the first frame's bit rate:
/// 5.62 s of a 7.1 s file, the rest silently dropped. Here every frame is decoded until the stream
/// ends, and `scannedFrames` (libmpg123 counting every frame, `mpg123_scan`) says how long it is.
public final class MP3Reader: AudioSource {
    private let handle: OpaquePointer
    private let path: String
    public let format: AudioFormat
    /// Frames counted by scanning the whole stream (no decoding), not from any header.
    public let totalFrames: Int?

    /// Opens `path`, decoding to 32-bit float at the file's rate and channels.
    /// - Throws: `AudioFileError.unsupportedFormat` when libmpg123 cannot read it.
    public init(path: String) throws {
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else {
            throw AudioFileError.unsupportedFormat(path: path, reason: "libmpg123: \(String(cString: mpg123_plain_strerror(code)))")
        }
        // From here a throw frees the handle (a failed initializer runs no deinit).
        func fail(_ what: String) -> AudioFileError {
            let reason = String(cString: mpg123_strerror(handle))
            mpg123_delete(handle)
            return AudioFileError.unsupportedFormat(path: path, reason: "libmpg123 \(what): \(reason)")
        }
        lt_mpg123_param(handle, MPG123_ADD_FLAGS, Int(MPG123_QUIET.rawValue | MPG123_FORCE_FLOAT.rawValue))
        guard lt_mpg123_open(handle, path) == MPG123_OK.rawValue else { throw fail("open") }
        var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue, rate > 0, channels > 0 else {
            throw fail("format")
        }
        // One output format for the whole stream: float at the first frame's rate and channels.
        mpg123_format_none(handle)
        guard mpg123_format(handle, rate, channels, Int32(MPG123_ENC_FLOAT_32.rawValue)) == MPG123_OK.rawValue else { throw fail("format") }
        guard lt_mpg123_scan(handle) == MPG123_OK.rawValue else { throw fail("scan") }
        let length = lt_mpg123_length(handle)
        self.handle = handle
        self.path = path
        format = AudioFormat(sampleRate: rate, channels: Int(channels))
        totalFrames = length > 0 ? Int(length) : nil
    }

    deinit { mpg123_delete(handle) }

    public func read(maxFrames: Int) throws -> AudioBuffer? {
        var samples = [Float](repeating: 0, count: maxFrames * format.channels)
        var done = 0
        let code = samples.withUnsafeMutableBytes { mpg123_read(handle, $0.baseAddress, $0.count, &done) }
        if code != MPG123_OK.rawValue && code != MPG123_DONE.rawValue && code != MPG123_NEW_FORMAT.rawValue {
            throw AudioFileError.readFailed(path: path, reason: String(cString: mpg123_strerror(handle)))
        }
        let frames = done / (MemoryLayout<Float>.size * format.channels)
        if frames == 0 && code == MPG123_DONE.rawValue { return nil }
        samples.removeSubrange(frames * format.channels..<samples.count)
        return AudioBuffer(samples: samples, channels: format.channels)
    }
}

/// Opens an audio file with the reader that reads all of it: `MP3Reader` for MPEG audio (libsndfile
/// stops at a VBR file's estimated length), `OpusFileReader` and `VorbisFileReader` for Ogg Opus and
/// Ogg Vorbis (libsndfile stops at the end of a chained file's first link), `SndFileReader` for
/// everything else.
public enum AudioFileReader {
    /// - Throws: `AudioFileError` as `SndFileReader.init` does (it checks the file first), and as
    ///   the other readers' initializers do.
    public static func open(path: String) throws -> any AudioSource {
        let reader: SndFileReader
        do {
            reader = try SndFileReader(path: path)
        } catch AudioFileError.unsupportedFormat(let path, let reason) {
            // A chain libsndfile refuses outright (its first link damaged, say): libopusfile's reason is the clearer one.
            guard OpusFileReader.isOggOpus(path: path) else { throw AudioFileError.unsupportedFormat(path: path, reason: reason) }
            return try OpusFileReader(path: path)
        }
        if reader.isMPEG { return try MP3Reader(path: path) }
        do {
            switch reader.oggCodec {
            case .opus: return try OpusFileReader(path: path)
            case .vorbis: return try VorbisFileReader(path: path)
            case nil: return reader
            }
        } catch AudioFileError.unsupportedFormat(let path, let reason) {
            // libsndfile read the first link's headers, so what libopusfile or libvorbisfile
            // refused is a later link: said so, never read as the first link alone.
            throw AudioFileError.readFailed(path: path, reason: "its first Ogg stream can be read but a stream chained after it "
                + "cannot (\(reason)); nothing of it is read")
        }
    }

    /// The note for a chained Ogg file whose links differ in their channel count, or nil:
    /// "note: c.opus is 2 chained Ogg Opus streams with 1 and 2 channels; all of them are read,
    /// mixed down to mono".
    public static func chainNote(path: String, shown: String) -> String? {
        switch (try? SndFileReader(path: path))?.oggCodec {
        case .opus: return (try? OpusFileReader(path: path))?.chain.note(shown: shown, codec: "Ogg Opus")
        case .vorbis: return (try? VorbisFileReader(path: path))?.chain.note(shown: shown, codec: "Ogg Vorbis")
        case nil: return nil
        }
    }

    /// The note for an MP3 whose header states less audio than its stream holds (a VBR file
    /// without a Xing header), or nil: "note: talk.mp3 states 0:05 of audio in its first frame
    /// but holds 0:07 (a VBR MP3 without a Xing header); all of it is read".
    public static func lengthNote(path: String, shown: String) -> String? {
        guard let stated = try? SndFileReader(path: path), stated.isMPEG, let statedFrames = stated.totalFrames,
              let scanned = try? MP3Reader(path: path), let frames = scanned.totalFrames,
              frames - statedFrames > scanned.format.sampleRate / 10 else { return nil }
        let rate = Double(scanned.format.sampleRate)
        return "note: \(shown) states \(ElapsedTimeFormat.clock(Double(statedFrames) / rate)) of audio in its first frame but holds "
            + "\(ElapsedTimeFormat.clock(Double(frames) / rate)) (a VBR MP3 without a Xing header); all of it is read"
    }
}
