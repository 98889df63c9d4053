import Foundation
import LiveTranscriberCore
import Synchronization

/// An `AudioFileEncoding` for tests, standing in for AVFoundation's AAC encoder (an Apple
/// framework, so a fake at a true boundary): it records each call and, when the destination's
/// folder exists, writes `output` there. `failure` makes it write half of `output` and throw, as
/// an encoder stopped part-way would.
public final class RecordingAudioEncoder: AudioFileEncoding {
    public struct Call: Sendable, Equatable {
        public var source: URL
        public var destination: URL
        public var format: RecordingAudioFormat
    }

    /// The error a failing encoder throws.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String { "the encoder refused the bit rate (simulated)" }
    }

    private let state = Mutex<[Call]>([])
    private let output: Data
    private let fails: Bool

    public init(output: Data = Data("ftypM4A encoded audio".utf8), fails: Bool = false) {
        self.output = output
        self.fails = fails
    }

    public var calls: [Call] { state.withLock { $0 } }

    public func encode(_ source: URL, to destination: URL, as format: RecordingAudioFormat) throws {
        state.withLock { $0.append(Call(source: source, destination: destination, format: format)) }
        let folder = destination.deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: folder) {
            try (fails ? output.prefix(output.count / 2) : output).write(to: destination)
        }
        if fails { throw Failure() }
    }
}
