import Foundation

/// The shape of an audio stream.
public struct AudioFormat: Sendable, Equatable, Hashable, Codable {
    /// Frames per second (Hz).
    public var sampleRate: Int
    /// Interleaved channels per frame, 1 or more.
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The sample rates audio is taken at, Hz: from telephone audio's 8 kHz down to 1 kHz, up to
    /// 384 kHz, the highest rate audio interfaces record at. Outside it a file's header is wrong
    /// rather than its audio odd: a WAV stating 1 Hz turns 227 KB into 31 hours to transcribe.
    /// `record --rate` takes these, and an audio file stating another rate is refused.
    public static let supportedSampleRates = 1_000...384_000
}

/// An audio file states a sample rate outside `AudioFormat.supportedSampleRates`: a damaged or
/// hand-made header, never read. The one sentence every platform's file readers give for it.
public struct UnsupportedSampleRate: Error, Equatable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var path: String
    /// The rate its header states, Hz.
    public var rate: Int

    public init(path: String, rate: Int) {
        self.path = path
        self.rate = rate
    }

    public var description: String {
        let rates = AudioFormat.supportedSampleRates
        return "\(path) states a sample rate of \(rate) Hz; audio from \(rates.lowerBound) to \(rates.upperBound) Hz can be read"
    }
}

/// A block of interleaved floating-point samples in [-1, 1].
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples: frame 0 channel 0, frame 0 channel 1, …
    public var samples: [Float]
    /// Channels per frame.
    public var channels: Int

    public init(samples: [Float], channels: Int) {
        precondition(channels > 0, "an audio buffer has at least one channel")
        self.samples = samples
        self.channels = channels
    }

    /// Frames in the buffer (samples divided by channels).
    public var frameCount: Int { samples.count / channels }
}

/// A source of audio frames: a microphone, an audio file, raw PCM.
public protocol AudioSource: AnyObject {
    /// The stream's rate and channel count, fixed for its life.
    var format: AudioFormat { get }
    /// Total frames when known in advance (files), nil for live capture and pipes.
    var totalFrames: Int? { get }
    /// Reads up to `maxFrames` frames; returns nil at the end of the stream.
    func read(maxFrames: Int) throws -> AudioBuffer?
}

/// A sample-rate converter for one mono stream.
public protocol Resampler: AnyObject {
    /// Converts the next block of input; may return fewer samples than it will eventually owe.
    func process(_ samples: [Float]) throws -> [Float]
    /// Returns the samples still held inside the converter; call once at the end.
    func flush() throws -> [Float]
}

/// Writes the original audio of a recording as it arrives.
public protocol AudioFileWriter: AnyObject {
    /// Appends interleaved frames.
    func write(_ buffer: AudioBuffer) throws
    /// Rewrites the header so the file is valid as it stands (crash safety).
    func updateHeader() throws
    /// Finishes the file; further writes are errors.
    func close() throws
}
