import AVFoundation
import CryptoKit
import LiveTranscriberCore
import LiveTranscriberStore

/// The library store's audio reader on iOS (`AudioFileMeasuring`), the role libsndfile has on
/// Linux: WAV and RF64 through the store's `WAVFileRepair` (an unfinished header is repaired from
/// the bytes present, as on Linux), anything else through `AVAudioFile` (FLAC, and M4A, whose
/// length AVFoundation takes from the container's sample table, priming frames excluded).
struct AVAudioFileMeasure: AudioFileMeasuring {
    /// The audio the file holds. FLAC: the length `AVAudioFile` reports; a file a crash left with
    /// no length stated gives nil, so draft recovery keeps it aside rather than treat it as empty.
    func measure(_ url: URL) -> AudioFileMeasurement? {
        if let plan = try? WAVFileRepair.repair(url) { return plan.layout.measurement }
        guard let file = try? AVAudioFile(forReading: url), file.length > 0 else { return nil }
        return AudioFileMeasurement(sampleRate: Int(file.fileFormat.sampleRate),
                                    channels: Int(file.fileFormat.channelCount), frames: file.length)
    }

    /// Seconds the file states: its length over its rate; nil when it states none.
    func statedSeconds(_ url: URL) -> Double? {
        guard let file = try? AVAudioFile(forReading: url), file.length > 0, file.fileFormat.sampleRate > 0 else { return nil }
        return Double(file.length) / file.fileFormat.sampleRate
    }

    /// The content digest, computed as on Linux (`AudioDigest`): SHA-256 over "rate=R;channels=C;"
    /// and every sample, interleaved, as 16-bit little-endian (x × 32768, rounded, clamped), so the
    /// same audio gives the same digest on both platforms. Nil when the file cannot be decoded.
    func contentDigest(_ url: URL) -> String? {
        guard let file = try? AVAudioFile(forReading: url), file.fileFormat.sampleRate > 0,
              let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 65_536) else { return nil }
        let channels = Int(file.processingFormat.channelCount)
        var hasher = SHA256()
        hasher.update(data: Data("rate=\(Int(file.fileFormat.sampleRate));channels=\(channels);".utf8))
        var bytes: [UInt8] = []
        while file.framePosition < file.length {
            guard (try? file.read(into: buffer)) != nil, buffer.frameLength > 0, let data = buffer.floatChannelData else { return nil }
            let frames = Int(buffer.frameLength)
            bytes.removeAll(keepingCapacity: true)
            bytes.reserveCapacity(frames * channels * 2)
            for frame in 0..<frames {
                for channel in 0..<channels {
                    let value = Int16(max(-32_768, min(32_767, (data[channel][frame] * 32_768).rounded())))
                    bytes.append(UInt8(truncatingIfNeeded: value))
                    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
                }
            }
            hasher.update(data: bytes)
        }
        return "sha256:" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
