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
    /// AAC-LC in an MPEG-4 (`.m4a`) container, lossy, about a twelfth of 48 kHz WAV at
    /// `aacBitRate`. Written by the iPhone app only (AVFoundation's encoder; libsndfile has no AAC),
    /// and never while recording: see `draftFormat`.
    case m4a

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The name people read in a settings list: "WAV", "FLAC", "Opus", "M4A (AAC)".
    public var displayName: String {
        switch self {
        case .wav: "WAV"
        case .flac: "FLAC"
        case .opus: "Opus"
        case .m4a: "M4A (AAC)"
        }
    }

    /// The format the draft is written in while recording.
    ///
    /// A crash must leave a draft whose audio can be read up to its last block. WAV, FLAC and Ogg
    /// Opus can (a WAV header is repaired from the bytes present; FLAC frames and Ogg pages stand
    /// alone). An `.m4a` file cannot: its sample table (`moov`) is written when the file is
    /// closed, so a file cut off by a crash holds AAC packets nobody can place. An M4A recording
    /// is therefore recorded as WAV and encoded to M4A when it is saved (`isEncodedOnSave`); a
    /// draft recovered after a crash stays WAV.
    public var draftFormat: RecordingAudioFormat { self == .m4a ? .wav : self }

    /// True when the draft is recorded in another format and encoded to this one on save.
    public var isEncodedOnSave: Bool { draftFormat != self }

    /// The rate (Hz) the file is stored at for a source of `rate` Hz: the source's own rate,
    /// except for Opus, which takes only 8, 12, 16, 24 or 48 kHz, and AAC, which takes 8, 11.025,
    /// 12, 16, 22.05, 24, 32, 44.1 or 48 kHz (the next one up, else 48 kHz). An M4A recording's
    /// WAV draft is written at this rate too, so the encoder never converts rates.
    public func storableRate(for rate: Int) -> Int {
        let rates: [Int]
        switch self {
        case .wav, .flac: return rate
        case .opus: rates = [8_000, 12_000, 16_000, 24_000, 48_000]
        case .m4a: rates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
        }
        return rates.first { $0 >= rate } ?? 48_000
    }

    /// The AAC encoder's bit rate (bits per second) for a file of `sampleRate` Hz and `channels`:
    /// 64 kbit/s per channel (speech stays clear, a 48 kHz stereo hour is about 58 MB instead of
    /// 691 MB of WAV), lowered to 2 bits per sample per channel below 32 kHz (16 kHz mono:
    /// 32 kbit/s), where AAC-LC cannot use more.
    public static func aacBitRate(sampleRate: Int, channels: Int) -> Int {
        max(1, channels) * min(64_000, 2 * max(0, sampleRate))
    }

    /// "wav, flac, opus or m4a", for help and error text.
    public static var choices: String { list(allCases) }

    /// Names joined for a sentence: "wav", "wav or flac", "wav, flac or opus".
    public static func list(_ formats: [RecordingAudioFormat]) -> String {
        let names = formats.map(\.rawValue)
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}
