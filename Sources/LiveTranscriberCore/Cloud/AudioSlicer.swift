import Foundation

/// Facts about an audio file that planning needs.
public struct AudioFileInfo: Sendable, Equatable {
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int

    public init(frames: Int, sampleRate: Int, channels: Int) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Seconds of audio.
    public var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// Reads an audio file's shape and cuts pieces out of it, for uploads. Implemented with libsndfile on
/// Linux (`SndFileAudioSlicer`) and with AVAudioFile on iOS (`AVAudioFileSlicer`).
public protocol AudioSlicer {
    /// Frames, rate and channels of `file`.
    func info(of file: URL) throws -> AudioFileInfo
    /// Writes frames `piece` of `source` to `destination` as 16-bit PCM WAV with the source's rate
    /// and channels, and returns the frames actually written (the piece's real length).
    func writeWAV(_ piece: AudioPiece, of source: URL, to destination: URL) throws -> Int
}
