import Foundation

/// How much audio a file really holds: frames actually present, whatever its header says.
public struct AudioFileMeasurement: Sendable, Equatable {
    /// Frames per second (Hz).
    public var sampleRate: Int
    /// Channels per frame.
    public var channels: Int
    /// Whole frames of audio present.
    public var frames: Int64
    /// `frames / sampleRate`, in seconds; 0 when the rate is unknown.
    public var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    public init(sampleRate: Int, channels: Int, frames: Int64) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
    }
}

extension WAVLayout {
    /// The audio a WAV or RF64 file of this layout holds: whole frames of its `data` chunk; nil
    /// when the format chunk states no rate or no frame size.
    public var measurement: AudioFileMeasurement? {
        guard sampleRate > 0, blockAlign > 0 else { return nil }
        return AudioFileMeasurement(sampleRate: sampleRate, channels: channels, frames: Int64(dataSize / UInt64(blockAlign)))
    }
}

/// Reads a recording's audio file for the library store: after a crash (draft recovery), when a
/// recording is saved (no recording is longer than its audio; its content digest) and when one
/// is reindexed or read (the duration rule again). Implemented over libsndfile on
/// Linux and over AVFoundation on iOS; the store itself decodes no audio. The store reads the
/// length of WAV and RF64 files from their headers itself (`WAVFileLength`) and asks
/// `statedSeconds` only for other formats (FLAC, Ogg Opus, M4A).
public protocol AudioFileMeasuring: Sendable {
    /// Repairs a header a crash left unfinished, where the format allows it, and returns the audio
    /// the file really holds; nil when the file is not audio this reader understands.
    func measure(_ url: URL) -> AudioFileMeasurement?
    /// Seconds of audio the file's header states, without decoding; nil when it states none.
    func statedSeconds(_ url: URL) -> Double?
    /// The digest of the audio content (`Recording.audioDigest`): SHA-256 over "rate=R;channels=C;"
    /// then every decoded sample as 16-bit little-endian, interleaved, written "sha256:<64 hex>".
    /// The same samples give the same digest in any container, so a recording's audio imported
    /// again is recognised. Nil when the file cannot be decoded.
    /// - Complexity: one decoding pass over the file.
    func contentDigest(_ url: URL) -> String?
}
