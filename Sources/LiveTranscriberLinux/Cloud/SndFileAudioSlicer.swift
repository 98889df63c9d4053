import CSndFile
import Foundation
import LiveTranscriberCore

/// Cuts pieces out of an audio file with libsndfile (WAV, FLAC, Ogg Vorbis/Opus, MP3 on Debian 12),
/// writing 16-bit PCM WAV, for uploads that must stay under a size limit.
public struct SndFileAudioSlicer: AudioSlicer {
    public init() {}

    /// A libsndfile failure: what was attempted, on which file, and the library's message.
    public struct SndFileError: Error, LocalizedError, CustomStringConvertible {
        public var operation: String
        public var path: String
        public var message: String
        public var description: String { "cannot \(operation) \(path): \(message)" }
        public var errorDescription: String? { description }
    }

    /// Owns an open SNDFILE; closes it on deinit.
    final class Handle {
        let pointer: OpaquePointer
        var info: SF_INFO

        init(path: String, mode: Int32, info: SF_INFO, operation: String) throws {
            var info = info
            guard let pointer = sf_open(path, mode, &info) else {
                throw SndFileError(operation: operation, path: path, message: String(cString: sf_strerror(nil)))
            }
            self.pointer = pointer
            self.info = info
        }

        deinit { sf_close(pointer) }
    }

    public func info(of file: URL) throws -> AudioFileInfo {
        let handle = try Handle(path: file.path, mode: Int32(SFM_READ), info: SF_INFO(), operation: "open")
        // A header that does not state its length (an unfinished FLAC) is not trusted: count.
        let frames = AudioFileMeasure.statedFrames(handle.info.frames)
            ?? Int(AudioFileMeasure.countFrames(file)?.measurement.frames ?? 0)
        return AudioFileInfo(frames: frames, sampleRate: Int(handle.info.samplerate), channels: Int(handle.info.channels))
    }

    public func writeWAV(_ piece: AudioPiece, of source: URL, to destination: URL) throws -> Int {
        let input = try Handle(path: source.path, mode: Int32(SFM_READ), info: SF_INFO(), operation: "open")
        let channels = Int(input.info.channels)
        guard sf_seek(input.pointer, sf_count_t(piece.startFrame), SEEK_SET) >= 0 else {
            throw SndFileError(operation: "seek in", path: source.path, message: String(cString: sf_strerror(input.pointer)))
        }
        var outInfo = SF_INFO()
        outInfo.samplerate = input.info.samplerate
        outInfo.channels = input.info.channels
        outInfo.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let output = try Handle(path: destination.path, mode: Int32(SFM_WRITE), info: outInfo, operation: "create")
        let block = 65_536
        var buffer = [Int16](repeating: 0, count: block * max(1, channels))
        var remaining = piece.frameCount
        var written = 0
        while remaining > 0 {
            let want = min(block, remaining)
            let read = buffer.withUnsafeMutableBufferPointer { sf_readf_short(input.pointer, $0.baseAddress, sf_count_t(want)) }
            guard read > 0 else { break }
            let wrote = buffer.withUnsafeBufferPointer { sf_writef_short(output.pointer, $0.baseAddress, read) }
            guard wrote == read else {
                throw SndFileError(operation: "write", path: destination.path, message: String(cString: sf_strerror(output.pointer)))
            }
            written += Int(read)
            remaining -= Int(read)
        }
        return written
    }
}
