import Foundation

/// The stored audio formats a recording can use.
public enum RecordingAudioFormat: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// 16-bit PCM WAV, the default: written as RF64, which libsndfile turns back into plain RIFF
    /// WAV on close while the file stays under 4 GiB (48 kHz stereo passes that after 6.2 hours).
    case wav
    /// FLAC, lossless, about half the size of WAV.
    case flac
    /// Opus in Ogg, lossy, a tenth of the size or less.
    case opus

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The rate (Hz) the file is stored at for a source of `rate` Hz: the source's own rate,
    /// except for Opus, which takes only 8, 12, 16, 24 or 48 kHz (the next one up, else 48 kHz).
    public func storableRate(for rate: Int) -> Int {
        guard self == .opus else { return rate }
        return [8_000, 12_000, 16_000, 24_000, 48_000].first { $0 >= rate } ?? 48_000
    }

    /// "wav, flac or opus", for help and error text.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
