import CALSA
import Foundation
import LiveTranscriberCore

/// Captures interleaved 16-bit audio from an ALSA device ("default" unless told otherwise).
public final class ALSAMicrophone: AudioSource {
    private let pcm: OpaquePointer
    private let device: String
    public let format: AudioFormat
    public let totalFrames: Int? = nil

    /// Opens `device` for capture at `sampleRate` Hz with `channels` channels
    /// (alsa-lib converts when the hardware differs).
    /// - Throws: `AudioFileError.captureFailed` with ALSA's reason, e.g. no sound card.
    public init(device: String = "default", sampleRate: Int, channels: Int) throws {
        lt_alsa_silence_errors()
        var pcm: OpaquePointer?
        var code = snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0)
        guard code >= 0, let pcm else {
            throw AudioFileError.captureFailed(device: device, reason: String(cString: snd_strerror(code)))
        }
        // 0.5 s of latency is plenty for 100 ms reads and survives a busy machine.
        code = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                  UInt32(channels), UInt32(sampleRate), 1, 500_000)
        guard code >= 0 else {
            snd_pcm_close(pcm)
            throw AudioFileError.captureFailed(device: device, reason: String(cString: snd_strerror(code)))
        }
        self.pcm = pcm
        self.device = device
        self.format = AudioFormat(sampleRate: sampleRate, channels: channels)
    }

    deinit { snd_pcm_close(pcm) }

    public func read(maxFrames: Int) throws -> AudioBuffer? {
        var samples = [Int16](repeating: 0, count: maxFrames * format.channels)
        var frames = samples.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(maxFrames)) }
        if frames < 0 {
            // An overrun (the reader fell behind) is recoverable; anything else ends the capture.
            let recovered = snd_pcm_recover(pcm, Int32(frames), 1)
            guard recovered >= 0 else {
                throw AudioFileError.captureFailed(device: device, reason: String(cString: snd_strerror(Int32(frames))))
            }
            frames = 0
        }
        samples.removeSubrange(Int(frames) * format.channels..<samples.count)
        return AudioBuffer(samples: AudioMath.floatSamples(samples), channels: format.channels)
    }
}
