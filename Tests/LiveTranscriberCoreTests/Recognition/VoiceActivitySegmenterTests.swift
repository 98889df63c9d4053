import Foundation
import LiveTranscriberCore
import Testing

/// 100 samples per window at 1 kHz: one window is 0.1 s, so durations read easily.
@Suite("Cutting utterances from voice activity probabilities")
struct VoiceActivitySegmenterTests {
    static func segmenter() -> VoiceActivitySegmenter {
        VoiceActivitySegmenter(windowSamples: 100, sampleRate: 1_000)
    }

    /// Feeds probabilities, one per window, and returns every cut including those of `finish()`.
    static func cuts(_ probabilities: [Float], finish: Bool = true) -> [UtteranceCut] {
        var segmenter = segmenter()
        var cuts = probabilities.flatMap { segmenter.add(probability: $0) }
        if finish { cuts += segmenter.finish() }
        return cuts
    }

    static func speech(_ seconds: Double) -> [Float] { [Float](repeating: 0.9, count: Int(seconds * 10)) }
    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0.05, count: Int(seconds * 10)) }

    @Test("an utterance runs from its first speech window to its last, padded by 0.2 s before and 0.1 s after, and ends after 0.5 s of silence")
    func oneUtterance() {
        var segmenter = Self.segmenter()
        for probability in Self.silence(1) + Self.speech(2) + Self.silence(0.4) {
            #expect(segmenter.add(probability: probability).isEmpty)
        }
        #expect(segmenter.openStartSample == 800)
        let cuts = segmenter.add(probability: 0.05)
        #expect(cuts == [UtteranceCut(startSample: 800, endSample: 3_100, forced: false)])
        #expect(segmenter.openStartSample == nil)
    }

    @Test("windows between the two thresholds keep an utterance going but do not start one")
    func hysteresis() {
        #expect(Self.cuts([Float](repeating: 0.4, count: 50)).isEmpty)
        let cuts = Self.cuts(Self.speech(1) + [Float](repeating: 0.4, count: 20) + Self.silence(1))
        #expect(cuts == [UtteranceCut(startSample: 0, endSample: 3_100, forced: false)])
    }

    @Test("less than 0.25 s of speech is noise and gives no utterance")
    func shortBurstDropped() {
        #expect(Self.cuts(Self.silence(1) + Self.speech(0.2) + Self.silence(1)).isEmpty)
        #expect(Self.cuts(Self.silence(1) + Self.speech(0.3) + Self.silence(1)).count == 1)
    }

    @Test("silence and low noise give nothing")
    func silenceGivesNothing() {
        #expect(Self.cuts(Self.silence(600)).isEmpty)
        #expect(Self.cuts([Float](repeating: 0.49, count: 6_000)).isEmpty)
    }

    @Test("the stream's end closes the open utterance at the last sample seen")
    func finishCloses() {
        #expect(Self.cuts(Self.silence(1) + Self.speech(2)) == [UtteranceCut(startSample: 800, endSample: 3_000, forced: false)])
        #expect(Self.cuts(Self.silence(1) + Self.speech(2), finish: false).isEmpty)
    }

    @Test("the expected cut is known once the silence covers the end padding after the last speech, and it is the cut that follows")
    func pendingCut() {
        var segmenter = Self.segmenter()
        for probability in Self.silence(1) + Self.speech(2) { _ = segmenter.add(probability: probability) }
        #expect(segmenter.pendingCut == nil)  // still speech
        _ = segmenter.add(probability: 0.05)  // the 0.1 s end padding
        let expected = UtteranceCut(startSample: 800, endSample: 3_100, forced: false)
        #expect(segmenter.pendingCut == expected)
        // Speech resumes: the end is unknown again, then moves.
        _ = segmenter.add(probability: 0.9)
        #expect(segmenter.pendingCut == nil)
        for probability in Self.silence(0.2) { _ = segmenter.add(probability: probability) }
        let moved = UtteranceCut(startSample: 800, endSample: 3_300, forced: false)
        #expect(segmenter.pendingCut == moved)
        var cuts: [UtteranceCut] = []
        for probability in Self.silence(0.3) { cuts += segmenter.add(probability: probability) }
        #expect(cuts == [moved])
        #expect(segmenter.pendingCut == nil)

        // Too little speech to be kept: no expected cut.
        var noise = Self.segmenter()
        for probability in Self.silence(1) + Self.speech(0.2) + Self.silence(0.3) { _ = noise.add(probability: probability) }
        #expect(noise.openStartSample == 800)
        #expect(noise.pendingCut == nil)
    }

    @Test("an utterance reaching 15 s is cut in the middle of its quietest window of the last 5 s, and the rest goes on")
    func forcedCut() {
        // 40 s of speech whose quietest windows are at 12.3 s and 24.1 s (probability 0.4, still speech).
        var probabilities = Self.speech(40)
        probabilities[123] = 0.4
        probabilities[241] = 0.4
        probabilities[60] = 0.36  // quieter, but more than 5 s before the limit
        let cuts = Self.cuts(probabilities)
        #expect(cuts == [
            UtteranceCut(startSample: 0, endSample: 12_350, forced: true),
            UtteranceCut(startSample: 12_350, endSample: 24_150, forced: true),
            // No quieter window in the last 5 s: the cut falls in the last window, as late as allowed.
            UtteranceCut(startSample: 24_150, endSample: 39_150, forced: true),
            UtteranceCut(startSample: 39_150, endSample: 40_000, forced: false),
        ])
        for cut in cuts { #expect(cut.endSample - cut.startSample <= 15_000) }
    }

    @Test("cuts follow each other without overlap: padding never reaches back into the previous utterance")
    func noOverlap() {
        let cuts = Self.cuts(Self.speech(1) + Self.silence(0.5) + Self.speech(1) + Self.silence(1))
        #expect(cuts.count == 2)
        #expect(cuts[0].endSample <= cuts[1].startSample)
    }
}

@Suite("Endpointing that follows the speech")
struct AdaptiveEndpointingTests {
    @Test("the pause that ends an utterance is 0.5 s up to 1.5 s of utterance, then shrinks linearly to 0.2 s at 4.5 s", arguments: [
        (0.5, 0.5), (1.5, 0.5), (3.0, 0.35), (4.5, 0.2), (14.0, 0.2),
    ])
    func requiredSilence(utteranceSeconds: Double, pause: Double) {
        #expect(abs(VoiceActivitySettings().requiredSilenceSeconds(utteranceSeconds: utteranceSeconds) - pause) < 1e-9)
    }

    @Test("a 0.2 s pause ends a 6 s utterance; a 0.4 s pause does not end a 1 s one")
    func shortPauseEndsLongUtterance() {
        let long = VoiceActivitySegmenterTests.cuts(VoiceActivitySegmenterTests.speech(6) + VoiceActivitySegmenterTests.silence(0.2), finish: false)
        #expect(long == [UtteranceCut(startSample: 0, endSample: 6_100, forced: false)])
        let short = VoiceActivitySegmenterTests.cuts(VoiceActivitySegmenterTests.speech(1) + VoiceActivitySegmenterTests.silence(0.4)
                                                     + VoiceActivitySegmenterTests.speech(1) + VoiceActivitySegmenterTests.silence(1))
        // 2.4 s of utterance when it ends: a pause of 0.41 s is needed, the 0.4 s one inside it is not enough.
        #expect(short == [UtteranceCut(startSample: 0, endSample: 2_500, forced: false)])
    }

    @Test("a split at a sentence end cuts in the middle of the quietest window between the two words, and the rest goes on")
    func split() {
        var segmenter = VoiceActivitySegmenterTests.segmenter()
        var probabilities = VoiceActivitySegmenterTests.speech(5)
        probabilities[30] = 0.4  // the breath between the sentences, 3.0 … 3.1 s
        for probability in probabilities { #expect(segmenter.add(probability: probability).isEmpty) }
        // Nothing to split beyond the audio seen.
        #expect(segmenter.split(from: 6_000, to: 7_000) == nil)
        #expect(segmenter.split(from: 2_900, to: 3_200) == UtteranceCut(startSample: 0, endSample: 3_050, forced: false))
        #expect(segmenter.openStartSample == 3_050)
        #expect(segmenter.finish() == [UtteranceCut(startSample: 3_050, endSample: 5_000, forced: false)])
        // No window's middle between the two times: the cut falls halfway.
        var other = VoiceActivitySegmenterTests.segmenter()
        for probability in VoiceActivitySegmenterTests.speech(5) { _ = other.add(probability: probability) }
        #expect(other.split(from: 2_960, to: 3_000)?.endSample == 2_980)
    }

    @Test("after a split, the stretch of speech counts from where it began: a 0.2 s pause ends the short rest of a 5 s stretch, and a stretch begun afresh needs 0.5 s")
    func pauseAfterSplitCountsTheWholeStretch() {
        var segmenter = VoiceActivitySegmenterTests.segmenter()
        for probability in VoiceActivitySegmenterTests.speech(5) { _ = segmenter.add(probability: probability) }
        // Split at 4.55 s: the rest is 0.45 s long, but the speaker has been talking for 5 s.
        #expect(segmenter.split(from: 4_500, to: 4_600) == UtteranceCut(startSample: 0, endSample: 4_550, forced: false))
        let cuts = VoiceActivitySegmenterTests.silence(0.2).flatMap { segmenter.add(probability: $0) }
        #expect(cuts == [UtteranceCut(startSample: 4_550, endSample: 5_100, forced: false)])
        // A new stretch after that pause: 1 s of speech needs the full 0.5 s again.
        let fresh = (VoiceActivitySegmenterTests.speech(1) + VoiceActivitySegmenterTests.silence(0.4)).flatMap { segmenter.add(probability: $0) }
        #expect(fresh.isEmpty)
        // (Its padding reaches back only to the last cut, 5.1 s.)
        #expect(segmenter.add(probability: 0.05) == [UtteranceCut(startSample: 5_100, endSample: 6_300, forced: false)])
    }
}
