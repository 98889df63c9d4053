import Foundation
import LiveTranscriberCore

/// Reads headerless signed 16-bit little-endian PCM (interleaved) from a file or standard input.
public final class RawPCMReader: AudioSource {
    private let handle: FileHandle
    private let path: String
    private var pending = Data()
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

    public func read(maxFrames: Int) throws -> AudioBuffer? {
        let frameBytes = 2 * format.channels
        let wanted = maxFrames * frameBytes
        while pending.count < wanted {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: wanted - pending.count)
            } catch {
                throw AudioFileError.readFailed(path: path, reason: error.localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            pending.append(chunk)
        }
        // A trailing partial frame (a cut-off stream) is dropped.
        let usable = pending.count - pending.count % frameBytes
        guard usable > 0 else { return nil }
        let block = pending.prefix(usable)
        pending.removeFirst(usable)
        var samples = [Float](repeating: 0, count: usable / 2)
        block.withUnsafeBytes { raw in
            for index in 0..<samples.count {
                let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
                samples[index] = Float(value) / 32_768
            }
        }
        return AudioBuffer(samples: samples, channels: format.channels)
    }
}
