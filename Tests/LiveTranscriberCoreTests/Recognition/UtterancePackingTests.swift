import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Utterance packing: a file's utterances decoded together over one stretch")
struct UtterancePackingTests {
    let rule = UtterancePacking()

    static func word(_ text: String, _ start: Double, _ end: Double) -> WordTiming {
        WordTiming(word: text, startSeconds: start, endSeconds: end)
    }

    static func cut(_ start: Int, _ end: Int) -> UtteranceCut { UtteranceCut(startSample: start, endSample: end, forced: false) }

    @Test("a stretch starts 2 s before its first utterance, never before the stretch before it ends nor before the stream")
    func stretchStart() {
        #expect(rule.stretchStart(firstStart: 5_000, previousEnd: 0, sampleRate: 1_000) == 3_000)
        #expect(rule.stretchStart(firstStart: 5_000, previousEnd: 4_100, sampleRate: 1_000) == 4_100)
        #expect(rule.stretchStart(firstStart: 1_500, previousEnd: 0, sampleRate: 1_000) == 0)
        // A forced cut: the next utterance starts where the stretch before ended.
        #expect(rule.stretchStart(firstStart: 15_000, previousEnd: 15_000, sampleRate: 1_000) == 15_000)
        #expect(UtterancePacking.alone.stretchStart(firstStart: 5_000, previousEnd: 0, sampleRate: 1_000) == 5_000)
    }

    @Test("a pack is due once the stream runs 27 s past its stretch's start")
    func due() {
        #expect(!rule.isDue(stretchStart: 3_000, streamSamples: 29_999, sampleRate: 1_000))
        #expect(rule.isDue(stretchStart: 3_000, streamSamples: 30_000, sampleRate: 1_000))
        #expect(UtterancePacking.alone.isDue(stretchStart: 3_000, streamSamples: 3_000, sampleRate: 1_000))
    }

    @Test("each word goes to the utterance holding its start, a word starting in a gap to the nearer side of the gap's middle, words outside to the first or last; no word ends after its utterance")
    func assignment() {
        // Utterances 1.0–3.0 s and 5.0–7.0 s: the gap's middle is 4.0 s.
        let cuts = [Self.cut(1_000, 3_000), Self.cut(5_000, 7_000)]
        let words = [Self.word("lead", 0.2, 0.6), Self.word("one", 1.2, 2.9), Self.word("last", 2.8, 5.1),
                     Self.word("late", 3.5, 4.4), Self.word("early", 4.1, 4.5), Self.word("two", 5.1, 5.5),
                     Self.word("tail", 7.2, 7.8)]
        let shares = UtterancePacking.assigned(words, to: cuts, sampleRate: 1_000)
        // "last" ends where an onset-timed decoder's next word begins, across the gap: cut at 3.0 s.
        #expect(shares == [
            [Self.word("lead", 0.2, 0.6), Self.word("one", 1.2, 2.9), Self.word("last", 2.8, 3.0), Self.word("late", 3.5, 3.5)],
            [Self.word("early", 4.1, 4.5), Self.word("two", 5.1, 5.5), Self.word("tail", 7.2, 7.2)],
        ])
        #expect(UtterancePacking.assigned(words, to: [], sampleRate: 1_000).isEmpty)
        #expect(UtterancePacking.assigned([], to: cuts, sampleRate: 1_000) == [[], []])
    }

    @Test("a stretch's quiet utterance is raised to the level of its loudest, the loudest left as recorded, silence untouched")
    func leveling() {
        // Two pieces of 4 samples (windows of 2): loud at RMS 0.2, quiet at RMS 0.01 (26 dB down, raised 20 times).
        let loud: [Float] = [0.2, -0.2, 0.2, -0.2]
        let quiet: [Float] = [0.01, -0.01, 0.01, -0.01]
        let leveled = UtterancePacking.leveled(loud + quiet, pieces: [0..<4, 4..<8], windowSamples: 2)
        #expect(leveled.map { ($0 * 1_000).rounded() / 1_000 } == loud + loud)
        // Less than 6 dB below the loudest (a gain under `minimumDecodeGain`): left as it is.
        let near: [Float] = [0.12, -0.12, 0.12, -0.12]
        #expect(UtterancePacking.leveled(loud + near, pieces: [0..<4, 4..<8], windowSamples: 2) == loud + near)
        #expect(UtterancePacking.leveled([0, 0, 0, 0], pieces: [0..<4], windowSamples: 2) == [0, 0, 0, 0])
        #expect(UtterancePacking.leveled(quiet, pieces: [0..<4], windowSamples: 2) == quiet)
    }
}

extension UtterancePackingTests {
    @Test("each utterance owns its stretch from the middle of the gap before it to the middle of the gap after it")
    func pieces() {
        let cuts = [Self.cut(1_000, 3_000), Self.cut(5_000, 7_000)]
        #expect(UtterancePacking.pieces(of: cuts, from: 0, count: 7_000) == [0..<4_000, 4_000..<7_000])
        #expect(UtterancePacking.pieces(of: cuts, from: 500, count: 6_500) == [0..<3_500, 3_500..<6_500])
        #expect(UtterancePacking.pieces(of: [Self.cut(1_000, 3_000)], from: 0, count: 3_000) == [0..<3_000])
        #expect(UtterancePacking.pieces(of: [], from: 0, count: 800) == [0..<800])
    }
}

/// A file's utterances packed into one decode, with the recognizer tests' scripted detector, decoder and worker.
extension UtteranceRecognizerTests {
    func packedRecognizer() -> UtteranceRecognizer { recognizer(interims: false, packing: UtterancePacking()) }

    @Test("two utterances of a short file: one decode from the stream's start to the second's end, its words shared out into two finals")
    func twoUtterancesOneDecode() throws {
        let recognizer = packedRecognizer()
        // Utterances cut at 1.8–4.1 s and 4.8–7.1 s (0.2 s padding before, 0.1 s after).
        #expect(try feed(recognizer, Self.silence(2) + Self.speech(2) + Self.silence(1) + Self.speech(2) + Self.silence(1)).isEmpty)
        #expect(worker.pending == 0)  // waiting for more utterances
        #expect(recognizer.untranscribedSamples == 8_000)  // all of it: the stretch starts at 0
        let events = try recognizer.finish(stopRequested: false, abandoning: { [worker] in worker.runNext(); return false }).events
        // One word per second decoded, w0 at 0–0.5 s … w6 at 6–6.5 s; the gap's middle is 4.45 s.
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 7_100, maxTokens: 114, interim: false)])
        #expect(events.compactMap { if case .final(let segment) = $0 { segment } else { nil } } == [
            // w4 ends at its utterance's end (4.1 s).
            TranscriptSegment(text: "w0 w1 w2 w3 w4", startSeconds: 0, endSeconds: 4.1, words: (0..<5).map {
                WordTiming(word: "w\($0)", startSeconds: Double($0), endSeconds: min(4.1, Double($0) + 0.5))
            }),
            TranscriptSegment(text: "w5 w6", startSeconds: 5, endSeconds: 6.5, words: (5..<7).map {
                WordTiming(word: "w\($0)", startSeconds: Double($0), endSeconds: Double($0) + 0.5)
            }),
        ])
    }

    @Test("a pack is decoded once the stream runs 27 s past its stretch's start; the next stretch starts 2 s before its utterance")
    func dueAfterTheSpan() throws {
        let recognizer = packedRecognizer()
        // An utterance cut at 0.8–3.1 s; its stretch starts at 0.
        _ = try feed(recognizer, Self.silence(1) + Self.speech(2) + Self.silence(23.9))
        #expect(worker.pending == 0)
        _ = try feed(recognizer, Self.silence(0.1))  // 27.0 s
        #expect(worker.pending == 1)
        worker.runNext()
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 3_100, maxTokens: 50, interim: false)])
        // The next utterance, cut at 27.8–29.1 s, is decoded from 25.8 s at the stream's end.
        var events = try feed(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1))
        events += try recognizer.finish(stopRequested: false, abandoning: { [worker] in worker.runNext(); return false }).events
        #expect(decoder.calls.last == ScriptedDecoder.Call(samples: 3_300, maxTokens: 53, interim: false))
        #expect(events.compactMap { if case .final(let segment) = $0 { segment.startSeconds } else { nil } } == [0, 25.8])
    }

    @Test("40 s of speech without a pause: the pieces cut at 15 s are decoded in stretches that follow each other, every sample once")
    func longSpeech() throws {
        let recognizer = packedRecognizer()
        _ = try feed(recognizer, Self.speech(40))
        _ = try recognizer.finish(stopRequested: false, abandoning: { [worker] in worker.runNext(); return false })
        #expect(decoder.calls.map(\.samples) == [14_950, 25_050])  // cut at the quietest point near 15 s
    }
}
