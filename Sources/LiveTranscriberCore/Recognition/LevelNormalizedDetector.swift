import Foundation

/// A voice activity detector that hears quiet speech at a normal level: each window is scaled by
/// `SpeechLevelNormalizer`'s gain before the wrapped detector sees it. Only the detector's input is
/// scaled; the samples decoded and saved are not touched.
public final class LevelNormalizedDetector: VoiceActivityDetector {
    private let inner: any VoiceActivityDetector
    private var normalizer: SpeechLevelNormalizer
    public var windowSamples: Int { inner.windowSamples }

    /// - Parameters:
    ///   - detector: the detector to feed (Silero VAD).
    ///   - sampleRate: samples per second of its input (16,000 for Silero).
    ///   - normalizer: the gain rule; by default `SpeechLevelNormalizer`'s defaults for this window length.
    public init(_ detector: any VoiceActivityDetector, sampleRate: Int, normalizer: SpeechLevelNormalizer? = nil) {
        self.inner = detector
        self.normalizer = normalizer
            ?? SpeechLevelNormalizer(windowSeconds: Double(detector.windowSamples) / Double(max(1, sampleRate)))
    }

    /// One probability per window of `samples` (a multiple of `windowSamples`), from the wrapped
    /// detector given the scaled windows. Throws what the wrapped detector throws.
    public func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        let window = inner.windowSamples
        var scaled = samples
        for start in stride(from: 0, to: samples.count, by: window) {
            let end = min(samples.count, start + window)
            let gain = normalizer.gain(windowRMS: SpeechLevelNormalizer.rms(samples[start..<end]))
            if gain != 1 { for index in start..<end { scaled[index] *= gain } }
        }
        return try inner.speechProbabilities(scaled)
    }
}
