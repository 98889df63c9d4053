import Foundation

/// The gain that brings quiet speech up to the level a voice activity detector was trained on.
///
/// Silero VAD is level-sensitive: LibriVox speech attenuated by 40 dB gets speech probabilities of
/// 0.1 to 0.7 where the original gets 0.9 and more, so whole quiet or whispered utterances were
/// dropped that Whisper decodes. The detector's input (not the audio decoded or saved) is therefore
/// scaled, window by window, so that the
/// loudest window of the last `memorySeconds` reaches `targetRMS`. The gain is never below 1 (loud
/// speech is left alone) and never above `maximumGain`; it rises only once the louder windows have
/// left the memory, so a word's envelope and the pause after it keep their shape. Nor does it lift the
/// background (the quietest window of the last `floorMemorySeconds`) above `backgroundCeilingRMS`:
/// Silero hears hiss raised to speech level as firmly not speech, and the faint start of an utterance
/// after it came late (LibriVox at 1.8 times its pace lost its first word). Stationary noise as such
/// stays below any threshold (white, pink and brown noise at 0.3 RMS, mains hum and LibriVox's room
/// tone 40 dB up all get probabilities below 0.1).
///
/// A final decode gets a gain of its own, one for the whole utterance (`decodeGain`).
public struct SpeechLevelNormalizer: Sendable, Equatable {
    /// The RMS level (1 is full scale) the loudest recent window is brought up to.
    public var targetRMS: Float
    /// The largest gain applied, as a factor of amplitude (100 is 40 dB): what lies further down is
    /// left as it is, such as the dither of digital silence.
    public var maximumGain: Float
    /// The RMS level the background (the quietest recent window) is raised to at most.
    public var backgroundCeilingRMS: Float
    /// Windows the loudest level is remembered for, the current one included.
    public let memoryWindows: Int
    /// Windows the quietest level (the background) is remembered for, the current one included.
    public let floorMemoryWindows: Int
    /// RMS levels of the last `floorMemoryWindows` windows, oldest first.
    private var levels: [Float] = []

    /// - Parameters:
    ///   - targetRMS: RMS level (full scale 1) the loudest recent window is brought up to; 0.1 (-20 dBFS)
    ///     is about where LibriVox's read speech peaks, so ordinary speech gets a gain of 1.
    ///   - maximumGain: the largest amplitude factor (316, 50 dB, by default).
    ///   - backgroundCeilingRMS: the level (full scale 1) the background is raised to at most; 0.0003 (-70 dBFS).
    ///   - memorySeconds: how long a loud window holds the gain down (seconds).
    ///   - floorMemorySeconds: how long the quietest window counts as the background (seconds).
    ///   - windowSeconds: the length of one window (seconds; 0.032 for Silero's 512 samples at 16 kHz).
    public init(targetRMS: Float = 0.03, maximumGain: Float = 316, backgroundCeilingRMS: Float = 0.0003,
                memorySeconds: Double = 1, floorMemorySeconds: Double = 5, windowSeconds: Double) {
        precondition(windowSeconds > 0 && targetRMS > 0 && maximumGain >= 1 && backgroundCeilingRMS > 0,
                     "a normalizer needs a positive window, target, ceiling and gain")
        self.targetRMS = targetRMS
        self.maximumGain = maximumGain
        self.backgroundCeilingRMS = backgroundCeilingRMS
        self.memoryWindows = max(1, Int((memorySeconds / windowSeconds).rounded()))
        self.floorMemoryWindows = max(memoryWindows, Int((floorMemorySeconds / windowSeconds).rounded()))
    }

    /// The RMS level of `samples` (0 for none).
    public static func rms(_ samples: ArraySlice<Float>) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Float = 0
        for sample in samples { sum += sample * sample }
        return (sum / Float(samples.count)).squareRoot()
    }

    /// Takes the next window's RMS level and returns the gain (an amplitude factor, 1 to
    /// `maximumGain`) to apply to that window: `targetRMS` over the loudest level of the last
    /// `memoryWindows` windows, this one included, or less where that would raise the quietest
    /// non-silent level of the last `floorMemoryWindows` above `backgroundCeilingRMS`.
    public mutating func gain(windowRMS: Float) -> Float {
        levels.append(windowRMS.isFinite ? windowRMS : 0)
        if levels.count > floorMemoryWindows { levels.removeFirst(levels.count - floorMemoryWindows) }
        let loudest = levels.suffix(memoryWindows).max() ?? 0
        guard loudest > 0 else { return 1 }
        var gain = targetRMS / loudest
        if let background = levels.filter({ $0 > 0 }).min() { gain = min(gain, backgroundCeilingRMS / background) }
        return min(maximumGain, max(1, gain))
    }
}

extension SpeechLevelNormalizer {
    /// The RMS level (full scale 1) the loudest window of an utterance is brought up to before it is
    /// decoded: 0.1 (-20 dBFS), about where LibriVox's read speech peaks, so speech at an ordinary
    /// level is decoded as it is.
    public static let decodeTargetRMS: Float = 0.1
    /// The most an utterance is raised before it is decoded, as an amplitude factor: 31.62 (30 dB).
    public static let maximumDecodeGain: Float = 31.622776
    /// The least gain applied (6 dB): speech whose loudest window is at 0.05 RMS or more is decoded as
    /// it is. A smaller gain changes no word but can change Whisper's path: LibriVox's 0880 raised by
    /// 1.7 dB took a temperature fallback, 0.75 s more CPU for the same words.
    public static let minimumDecodeGain: Float = 2

    /// The gain (an amplitude factor, 1 or `minimumGain` to `maximumGain`) that brings the loudest
    /// window of `samples` (`windowSamples` long, the last one possibly shorter) to `targetRMS`; 1
    /// (nothing changed) when that would be less than `minimumGain`, so loud speech is never turned
    /// down and speech at an ordinary level is left alone; 1 for silence.
    ///
    /// Whisper's log-mel input keeps the absolute level, so quiet speech decodes worse than the same
    /// speech at an ordinary level (whispered speech 30 dB down, live: 29 words of 71 wrong, 20 raised;
    /// BENCHMARKS.md). One gain for the whole utterance keeps its envelope.
    public static func decodeGain(_ samples: [Float], windowSamples: Int, targetRMS: Float = decodeTargetRMS,
                                  minimumGain: Float = minimumDecodeGain, maximumGain: Float = maximumDecodeGain) -> Float {
        let loudest = loudestLevel(samples[...], windowSamples: windowSamples)
        guard loudest > 0 else { return 1 }
        let gain = targetRMS / loudest
        return gain < minimumGain ? 1 : min(maximumGain, gain)
    }

    /// The RMS level of the loudest window of `windowSamples` in `samples` (full scale 1); 0 for silence or none.
    public static func loudestLevel(_ samples: ArraySlice<Float>, windowSamples: Int) -> Float {
        let window = max(1, windowSamples)
        var loudest: Float = 0
        for start in stride(from: samples.startIndex, to: samples.endIndex, by: window) {
            let level = rms(samples[start..<min(samples.endIndex, start + window)])
            if level.isFinite { loudest = max(loudest, level) }
        }
        return loudest
    }

    /// `samples` scaled by `decodeGain(_:windowSamples:)`: what a final decode is given.
    public static func leveledForDecoding(_ samples: [Float], windowSamples: Int) -> [Float] {
        let gain = decodeGain(samples, windowSamples: windowSamples)
        return gain == 1 ? samples : samples.map { $0 * gain }
    }
}
