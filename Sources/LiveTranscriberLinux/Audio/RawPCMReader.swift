import Foundation
import Glibc
import LiveTranscriberCore

/// Reads headerless signed 16-bit little-endian PCM (interleaved) from a file or standard input.
public final class RawPCMReader: AudioSource {
    private let handle: FileHandle
    private let path: String
    /// Bytes read but not yet returned: less than one block plus a partial frame. An array that
    /// is emptied in place, so memory stays flat however long the stream (a `Data` that has bytes
    /// removed from its front keeps growing its storage with every append).
    private var pending: [UInt8] = []
    private let isStandardInput: Bool
    private var ended = false
    public let format: AudioFormat
    public let totalFrames: Int?

    /// Opens `path`, or standard input when `path` is "-".
    ///
    /// - Parameters:
    ///   - sampleRate: frames per second (Hz), from `--rate`.
    ///   - channels: interleaved channels, from `--channels`.
    /// - Throws: `AudioFileError.notFound` or `.unreadable`.
    public init(path: String, sampleRate: Int, channels: Int) throws {
        self.path = path
        self.format = AudioFormat(sampleRate: sampleRate, channels: channels)
        self.isStandardInput = path == "-"
        if path == "-" {
            handle = FileHandle.standardInput
            totalFrames = nil
            return
        }
        guard FileManager.default.fileExists(atPath: path) else { throw AudioFileError.notFound(path: path) }
        guard let opened = FileHandle(forReadingAtPath: path) else {
            throw AudioFileError.unreadable(path: path, reason: "permission denied")
        }
        handle = opened
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        totalFrames = bytes.map { $0 / (2 * channels) }
    }

    /// Reads up to `maxFrames` frames; nil at the end of the stream. From standard input it waits
    /// at most 0.1 s and may return an empty buffer, so a caller waiting on a quiet pipe can still
    /// react to a stop request.
    public func read(maxFrames: Int) throws -> AudioBuffer? {
        let frameBytes = 2 * format.channels
        let wanted = maxFrames * frameBytes
        if isStandardInput {
            try readAvailableStandardInput(upTo: wanted - pending.count)
            if !ended && pending.count < frameBytes { return AudioBuffer(samples: [], channels: format.channels) }
        }
        while !isStandardInput && pending.count < wanted {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: wanted - pending.count)
            } catch {
                throw AudioFileError.readFailed(path: path, reason: error.localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            pending.append(contentsOf: chunk)
        }
        // A trailing partial frame (a cut-off stream) is dropped.
        let usable = pending.count - pending.count % frameBytes
        guard usable > 0 else { return nil }
        var samples = [Float](repeating: 0, count: usable / 2)
        pending.withUnsafeBytes { raw in
            for index in 0..<samples.count {
                let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
                samples[index] = Float(value) / 32_768
            }
        }
        pending.removeSubrange(0..<usable)
        return AudioBuffer(samples: samples, channels: format.channels)
    }

    /// One read of what stdin has within 0.1 s (a pipe gives what was written so far).
    private func readAvailableStandardInput(upTo count: Int) throws {
        guard !ended, count > 0 else { return }
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 100) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: count)
        let got = Glibc.read(0, &buffer, count)
        if got < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw AudioFileError.readFailed(path: path, reason: String(cString: strerror(errno)))
        }
        if got == 0 { ended = true } else { pending.append(contentsOf: buffer[0..<got]) }
    }
}
