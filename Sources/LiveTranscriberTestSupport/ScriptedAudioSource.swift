import Foundation
import LiveTranscriberCore

/// An audio source that plays generated blocks: a constant level for `seconds`, then the end of
/// the stream, or a read error after `failAfterSeconds`.
public final class ScriptedAudioSource: AudioSource {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String { "the audio device went away (simulated)" }
    }

    public let format: AudioFormat
    public let totalFrames: Int?
    private let level: Float
    private let failAfterFrames: Int?
    private var framesRead = 0

    /// - Parameters:
    ///   - seconds: length of the stream.
    ///   - level: the value of every sample.
    ///   - failAfterSeconds: `read` throws `Failure` once this much has been read.
    public init(format: AudioFormat, seconds: Double, level: Float = 0.25, failAfterSeconds: Double? = nil) {
        self.format = format
        self.totalFrames = Int((seconds * Double(format.sampleRate)).rounded())
        self.level = level
        self.failAfterFrames = failAfterSeconds.map { Int(($0 * Double(format.sampleRate)).rounded()) }
    }

    public func read(maxFrames: Int) throws -> AudioBuffer? {
        if let failAfterFrames, framesRead >= failAfterFrames { throw Failure() }
        let count = min(maxFrames, (totalFrames ?? 0) - framesRead)
        guard count > 0 else { return nil }
        framesRead += count
        return AudioBuffer(samples: [Float](repeating: level, count: count * format.channels), channels: format.channels)
    }
}

/// An audio file writer that keeps counts instead of a file, for core tests.
public final class MemoryAudioFileWriter: AudioFileWriter {
    /// The error a write throws once `failAfterFrames` frames are written.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String { "no space left on device (simulated)" }
    }

    public let format: AudioFormat
    private let failAfterFrames: Int?
    public private(set) var framesWritten = 0
    public private(set) var headerUpdates = 0
    public private(set) var closed = false

    public init(format: AudioFormat, failAfterFrames: Int? = nil) {
        self.format = format
        self.failAfterFrames = failAfterFrames
    }

    public func write(_ buffer: AudioBuffer) throws {
        precondition(!closed, "write after close")
        if let failAfterFrames, framesWritten + buffer.frameCount > failAfterFrames { throw Failure() }
        framesWritten += buffer.frameCount
    }

    public func updateHeader() throws { headerUpdates += 1 }

    public func close() throws { closed = true }
}
