import Foundation

/// Audio arithmetic that needs no library.
public enum AudioMath {
    /// Averages the channels of interleaved audio into one mono channel.
    ///
    /// A tone on the left channel only comes out at half amplitude, with the same number of frames.
    /// - Complexity: O(n) in samples.
    public static func downmixToMono(_ buffer: AudioBuffer) -> [Float] {
        let channels = buffer.channels
        if channels == 1 { return buffer.samples }
        let frames = buffer.frameCount
        var mono = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        buffer.samples.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channels
                for channel in 0..<channels { sum += input[base + channel] }
                mono[frame] = sum * scale
            }
        }
        return mono
    }

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
