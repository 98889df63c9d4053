import Foundation
import LiveTranscriberCore
import Testing

/// A detector that reports each window's first sample as its probability and keeps what it heard.
private final class EchoDetector: VoiceActivityDetector {
    let windowSamples = 4
    var heard: [Float] = []
    func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        heard += samples
        return stride(from: 0, to: samples.count, by: windowSamples).map { samples[$0] }
    }
}

/// 0.1 s windows and a 0.3 s memory: the loudest of the last three windows sets the gain. Levels
/// are powers of two, so every product is exact.
@Suite("Bringing quiet speech up to the level the voice activity detector knows")
struct SpeechLevelNormalizerTests {
    static func normalizer() -> SpeechLevelNormalizer {
        SpeechLevelNormalizer(targetRMS: 0.125, maximumGain: 64, backgroundCeilingRMS: 1, memorySeconds: 0.3,
                              floorMemorySeconds: 0.5, windowSeconds: 0.1)
    }

    @Test("the gain is the target over the loudest of the remembered windows, between 1 and the maximum", arguments: [
        // (window levels, gain of each)
        ([1.0 / 64, 1.0 / 32, 1.0 / 256, 1.0 / 256, 1.0 / 256], [8, 4, 4, 4, 32]),
        ([0.25, 0.0625], [1, 1]),  // loud speech is never turned down
        ([1.0 / 65_536, 0.0], [64, 64]),  // held to the maximum; a silent window keeps the remembered level
        ([0.0, 0.0], [1, 1]),  // digital silence is left alone
    ] as [([Float], [Float])])
    func gains(levels: [Float], expected: [Float]) {
        var normalizer = Self.normalizer()
        #expect(levels.map { normalizer.gain(windowRMS: $0) } == expected)
        #expect(normalizer.memoryWindows == 3)
        #expect(normalizer.floorMemoryWindows == 5)
    }

    @Test("the background (the quietest non-silent window remembered) is raised to the ceiling at most, and counts for its memory only")
    func backgroundCeiling() {
        var normalizer = Self.normalizer()
        normalizer.backgroundCeilingRMS = 1.0 / 64
        let levels: [Float] = [1.0 / 1024, 1.0 / 256, 0, 1.0 / 256, 1.0 / 256, 1.0 / 256, 1.0 / 256]
        // (1/64) / (1/1024) = 16 while 1/1024 is remembered (five windows), then (1/64) / (1/256) = 4;
        // the loudest alone would give 128, then 32. The silent window is not the background.
        #expect(levels.map { normalizer.gain(windowRMS: $0) } == [16, 16, 16, 16, 16, 4, 4])
    }

    @Test("a level that is not a number counts as silence")
    func notANumber() {
        var normalizer = Self.normalizer()
        #expect(normalizer.gain(windowRMS: .nan) == 1)
        #expect(normalizer.gain(windowRMS: 1.0 / 32) == 4)
    }

    @Test("RMS of a window: the root of the mean square, 0 for none")
    func rms() {
        #expect(SpeechLevelNormalizer.rms([0.5, -0.5][...]) == 0.5)
        #expect(SpeechLevelNormalizer.rms([1, -1, 0, 0][...]) == Float(0.5).squareRoot())
        #expect(SpeechLevelNormalizer.rms([][...]) == 0)
    }

    @Test("the detector hears each window scaled by its gain, and its probabilities come back as they are")
    func detectorInput() throws {
        let echo = EchoDetector()
        let detector = LevelNormalizedDetector(echo, sampleRate: 40, normalizer: Self.normalizer())
        #expect(detector.windowSamples == 4)
        let quiet: [Float] = [1.0 / 64, -1.0 / 64, 1.0 / 64, -1.0 / 64]
        let loud: [Float] = [0.5, -0.5, 0.5, -0.5]
        let probabilities = try detector.speechProbabilities(quiet + loud + quiet)
        #expect(probabilities == [0.125, 0.5, 1.0 / 64])  // the third window is heard while the loud one is remembered
        #expect(echo.heard == [0.125, -0.125, 0.125, -0.125] + loud + quiet)
        // Three windows later the loud one is forgotten and quiet windows are raised again.
        #expect(try detector.speechProbabilities(quiet + quiet) == [1.0 / 64, 0.125])
    }
}
