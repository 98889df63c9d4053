import Foundation
import LiveTranscriberCore

/// Why audio could not be read, written or captured.
public enum AudioFileError: Error, Equatable, CustomStringConvertible {
    /// No file at the path.
    case notFound(path: String)
    /// The file exists but cannot be opened for reading (permissions, a folder).
    case unreadable(path: String, reason: String)
    /// libsndfile does not recognise the contents as audio it can decode.
    case unsupportedFormat(path: String, reason: String)
    /// The file holds no audio at all: it is empty (0 bytes), or a WAV header with no `data`
    /// chunk after it. `reason` says which.
    case noAudio(path: String, reason: String)
    /// The file states a sample rate outside `AudioFormat.supportedSampleRates` (Hz): a damaged
    /// or hand-made header, never read (it would be hours of audio, or none).
    case unsupportedSampleRate(path: String, rate: Int)
    /// Writing the recording's audio failed (disk full, permissions).
    case writeFailed(path: String, reason: String)
    /// Decoding failed part-way through the file.
    case readFailed(path: String, reason: String)
    /// The capture device could not be opened or read.
    case captureFailed(device: String, reason: String)
    /// The resampler (libsoxr) failed.
    case resampleFailed(reason: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "no such file: \(path)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .unsupportedFormat(let path, let reason):
            return "\(path) is not an audio file this tool can read (\(reason)); it reads WAV, FLAC, Ogg Vorbis or Opus, MP3 and AIFF"
        case .noAudio(let path, let reason):
            return "\(path) holds no audio: \(reason)"
        case .unsupportedSampleRate(let path, let rate):
            return UnsupportedSampleRate(path: path, rate: rate).description
        case .writeFailed(let path, let reason):
            return "cannot write audio to \(path): \(reason)"
        case .readFailed(let path, let reason):
            return "reading \(path) failed: \(reason)"
        case .captureFailed(let device, let reason):
            return "cannot capture from audio device '\(device)': \(reason). Use --input FILE to transcribe a file instead"
        case .resampleFailed(let reason):
            return "resampling failed: \(reason)"
        }
    }
}
