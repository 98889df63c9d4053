import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// A detector that hears any window whose first sample is not 0 as speech, whatever its level.
private final class AnyLevelDetector: VoiceActivityDetector {
    let windowSamples = 100
    func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        stride(from: 0, to: samples.count, by: windowSamples).map { samples[$0] != 0 ? 0.9 : 0.05 }
    }
}

/// A decoder that records the loudest sample of each decode and whether it was an interim.
private final class LevelRecordingDecoder: UtteranceDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(peak: Float, interim: Bool)] = []
    var calls: [(peak: Float, interim: Bool)] { lock.withLock { recorded } }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        lock.withLock { recorded.append((samples.map(abs).max() ?? 0, interim)) }
        return [WordTiming(word: "w", startSeconds: 0.3, endSeconds: 0.6)]
    }
}

@Suite("What a final decode hears: the utterance at an ordinary level")
struct DecodeLevelTests {
    @Test("the decode gain brings the loudest window to 0.1 RMS, 6 to 30 dB up, else nothing", arguments: [
        // (samples in windows of 4, gain)
        ([0.0125, -0.0125, 0.0125, -0.0125, 0.00625, 0, 0, 0], 8),  // the loudest window (0.0125 RMS) sets it
        ([0.5, -0.5, 0.5, -0.5, 0.001, 0, 0, 0], 1),  // loud speech is left alone
        ([0.0625, -0.0625, 0.0625, -0.0625], 1),  // 1.6 would do: under the least gain (2), left alone
        ([0.05, -0.05, 0.05, -0.05], 2),  // exactly the least gain
        ([0.0001, -0.0001, 0.0001, -0.0001, 0.0001], 31.622776),  // 60 dB up would be needed: 30 dB at most
        ([0, 0, 0, 0], 1),  // silence
        ([], 1),
    ] as [([Float], Float)])
    func gain(samples: [Float], expected: Float) {
        #expect(SpeechLevelNormalizer.decodeGain(samples, windowSamples: 4) == expected)
    }

    @Test("a final decode is given the utterance scaled by that gain; the samples themselves are not changed otherwise")
    func leveled() {
        #expect(SpeechLevelNormalizer.leveledForDecoding([0.0125, -0.0125, 0, 0.00625], windowSamples: 2) == [0.1, -0.1, 0, 0.05])
        #expect(SpeechLevelNormalizer.leveledForDecoding([0.5, -0.25], windowSamples: 2) == [0.5, -0.25])
    }

    /// Speech at 1/64 (RMS 1/64, so the gain is 6.4 and the product exact).
    @Test("quiet speech: the final (and look-ahead) decodes hear it at 0.1, interim decodes as it was recorded")
    func finalsOnly() throws {
        let clock = ManualClock()
        let decoder = LevelRecordingDecoder()
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: AnyLevelDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        let quiet = [Float](repeating: 0, count: 500) + [Float](repeating: 1.0 / 64, count: 2_500) + [Float](repeating: 0, count: 1_500)
        for start in stride(from: 0, to: quiet.count, by: 100) {
            _ = try recognizer.accept(.float32(Array(quiet[start..<start + 100])))
            clock.advance(by: 0.1)
        }
        _ = try recognizer.finish()
        let calls = decoder.calls
        let quietLevel: Float = 1.0 / 64
        #expect(calls.filter(\.interim).map(\.peak) == [quietLevel, quietLevel])
        #expect(calls.filter { !$0.interim }.map(\.peak) == [0.1])
    }
}

/// A decoder that keeps the samples of each decode.
private final class SampleRecordingDecoder: UtteranceDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[Float]] = []
    var decodes: [[Float]] { lock.withLock { recorded } }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        lock.withLock { recorded.append(samples) }
        return []
    }
}

@Suite("What a file's packed decode hears: its quiet utterances at the level of its loudest")
struct PackedDecodeLevelTests {
    @Test("a quiet utterance after a loud one in the same pack is raised towards the loud one's level (at most 30 dB), the loud one left as it is")
    func quietRaisedToTheLoudest() throws {
        let decoder = SampleRecordingDecoder()
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: AnyLevelDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), interims: false)
        // Cut at 0.3–2.6 s (loud, 0.5) and 3.3–5.6 s (quiet, 1/64): one stretch from 0, split at 2.95 s.
        let audio = [Float](repeating: 0, count: 500) + [Float](repeating: 0.5, count: 2_000) + [Float](repeating: 0, count: 1_000)
            + [Float](repeating: 1.0 / 64, count: 2_000) + [Float](repeating: 0, count: 1_500)
        for start in stride(from: 0, to: audio.count, by: 100) {
            _ = try recognizer.accept(.float32(Array(audio[start..<start + 100])))
        }
        _ = try recognizer.finish()
        #expect(decoder.decodes.map(\.count) == [5_600])
        let heard = decoder.decodes.first ?? []
        #expect(heard.prefix(2_950).max() == 0.5)
        // 32 times would reach 0.5; the gain stops at `maximumDecodeGain` (30 dB).
        #expect(heard.dropFirst(2_950).max() == Float(1.0 / 64) * SpeechLevelNormalizer.maximumDecodeGain)
        #expect(heard.dropFirst(2_950).filter { $0 != 0 }.count == 2_000)
    }
}
