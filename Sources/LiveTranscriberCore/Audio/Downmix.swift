import Foundation

/// Audio arithmetic that needs no library.
public enum AudioMath {
    /// Averages the channels of interleaved audio into one mono channel, unless they cancel.
    ///
    /// A tone on the left channel only comes out at half amplitude, with the same number of frames.
    /// Channels that cancel each other (one the phase inverse of another, as a miswired microphone
    /// gives) would average to silence: when the mix holds less than a quarter of the energy that
    /// channels with nothing in common would give (`Σ channel energy / channels²`, so the rule is
    /// the same for any channel count), the strongest channel is taken alone instead.
    /// - Complexity: O(n) in samples.
    public static func downmixToMono(_ buffer: AudioBuffer) -> [Float] {
        let channels = buffer.channels
        if channels == 1 { return buffer.samples }
        let frames = buffer.frameCount
        var mono = [Float](repeating: 0, count: frames)
        var channelEnergy = [Double](repeating: 0, count: channels)
        var mixEnergy = 0.0
        let scale = 1 / Float(channels)
        buffer.samples.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channels
                for channel in 0..<channels {
                    let sample = input[base + channel]
                    sum += sample
                    channelEnergy[channel] += Double(sample * sample)
                }
                let mixed = sum * scale
                mono[frame] = mixed
                mixEnergy += Double(mixed * mixed)
            }
        }
        let uncorrelated = channelEnergy.reduce(0, +) / Double(channels * channels)
        // Below about -90 dBFS per sample there is nothing to save.
        guard uncorrelated > 1e-9 * Double(frames), mixEnergy < cancellationRatio * uncorrelated,
              let strongest = channelEnergy.indices.max(by: { channelEnergy[$0] < channelEnergy[$1] })
        else { return mono }
        return buffer.samples.withUnsafeBufferPointer { input in
            (0..<frames).map { input[$0 * channels + strongest] }
        }
    }

    /// How far below the energy of unrelated channels a mix must fall to count as cancelled (-6 dB).
    public static let cancellationRatio = 0.25

    /// Converts floating-point samples in [-1, 1] to 16-bit integers, clipping outside that range.
    public static func int16Samples(_ samples: [Float]) -> [Int16] {
        samples.map { sample in
            let scaled = (sample * 32_768).rounded()
            return Int16(max(-32_768, min(32_767, scaled)))
        }
    }

    /// Converts 16-bit integer samples to floating point in [-1, 1).
    public static func floatSamples(_ samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32_768 }
    }

    /// Root-mean-square level of samples, 0 for silence, about 0.707 for a full-scale sine.
    public static func rmsLevel(_ samples: [Float]) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Float = 0
        for sample in samples { sum += sample * sample }
        return (sum / Float(samples.count)).squareRoot()
    }
}
