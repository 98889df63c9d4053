import AVFoundation
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

    /// The content digest by the core's rule (`AudioContentDigest`, hashed by CryptoKit), so the
    /// same audio gives the same digest here and on Linux. Nil when the file cannot be decoded.
    func contentDigest(_ url: URL) -> String? {
        guard let file = try? AVAudioFile(forReading: url), file.fileFormat.sampleRate > 0,
              let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 65_536) else { return nil }
        let channels = Int(file.processingFormat.channelCount)
        var digest = AudioContentDigest(sampleRate: Int(file.fileFormat.sampleRate), channels: channels, hasher: CryptoKitSHA256())
        while file.framePosition < file.length {
            // The processing format is deinterleaved floats: added frame by frame, every channel.
            guard (try? file.read(into: buffer)) != nil, buffer.frameLength > 0, let data = buffer.floatChannelData else { return nil }
            for frame in 0..<Int(buffer.frameLength) {
                for channel in 0..<channels { digest.add(data[channel][frame]) }
            }
        }
        return digest.finish()
    }
}
