import AVFoundation
import Foundation
import LiveTranscriberCore
import Synchronization

/// The core's `AudioSource` over an audio file (`AVAudioFile`: WAV, AIFF, CAF, M4A/AAC, MP3,
/// FLAC…), read as interleaved floats at the file's own rate and channels: how an import feeds
/// the recording engine, as fast as it can.
final class AudioFileSource: StoppableAudioSource {
    let format: AudioFormat
    let totalFrames: Int?
    private let file: AVAudioFile
    private let stopped = Atomic<Bool>(false)
    private let lock = Mutex(())

    /// - Throws: AVFoundation's error when the file cannot be read as audio; `UnsupportedSampleRate`
    ///   when it states a rate outside `AudioFormat.supportedSampleRates`.
    init(url: URL) throws {
        file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: true)
        let rate = Int(file.processingFormat.sampleRate.rounded())
        guard AudioFormat.supportedSampleRates.contains(rate) else {
            throw UnsupportedSampleRate(path: url.lastPathComponent, rate: rate)
        }
        format = AudioFormat(sampleRate: rate, channels: Int(file.processingFormat.channelCount))
        totalFrames = Int(file.length)
    }

    func read(maxFrames: Int) throws -> LiveTranscriberCore.AudioBuffer? {
        guard !stopped.load(ordering: .relaxed) else { return nil }
        return try lock.withLock { _ in
            guard let pcm = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(maxFrames))
            else { return nil }
            try file.read(into: pcm, frameCount: AVAudioFrameCount(maxFrames))
            let frames = Int(pcm.frameLength)
            guard frames > 0, let data = pcm.floatChannelData else { return nil }
            let samples = Array(UnsafeBufferPointer(start: data[0], count: frames * format.channels))
            return LiveTranscriberCore.AudioBuffer(samples: samples, channels: format.channels)
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
