import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// Audio that says where it is: sample i of the stream holds 1 + i/100 000 in speech and
/// −i/100 000 − 0.001 in silence (1 kHz), so a decoder knows which part of the stream it was given.
enum TimelineAudio {
    static func samples(_ pattern: [(speech: Bool, seconds: Double)]) -> [Float] {
        var samples: [Float] = []
        for (speech, seconds) in pattern {
            for _ in 0..<Int((seconds * 1_000).rounded()) {
                let index = Float(samples.count) / 100_000
                samples.append(speech ? 1 + index : -index - 0.001)
            }
        }
        return samples
    }

    static func index(_ sample: Float) -> Int { Int(((sample >= 1 ? sample - 1 : -sample - 0.001) * 100_000).rounded()) }
}

/// Speech where the samples are at or above 1 (100 samples per window).
final class TimelineDetector: VoiceActivityDetector {
    let windowSamples = 100
    func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        stride(from: 0, to: samples.count, by: windowSamples).map { samples[$0] >= 1 ? 0.9 : 0.05 }
    }
}

/// A decoder that knows what was said when (seconds from the stream's start) and returns the words
/// wholly inside the audio it is given, with times from that audio's first sample: a perfect engine.
final class TimelineDecoder: UtteranceDecoder, @unchecked Sendable {
    let script: [WordTiming]
    private let lock = NSLock()
    private var recorded: [(start: Double, end: Double, interim: Bool)] = []
    var calls: [(start: Double, end: Double, interim: Bool)] { lock.withLock { recorded } }

    init(_ script: [WordTiming]) { self.script = script }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        guard let first = samples.first else { return [] }
        let start = Double(TimelineAudio.index(first)) / 1_000
        let end = start + Double(samples.count) / 1_000
        lock.withLock { recorded.append((start, end, interim)) }
        if cancellation.isCancelled { throw CancellationError() }
        return script.filter { $0.startSeconds >= start - 1e-9 && $0.endSeconds <= end + 1e-9 }
            .map { WordTiming(word: $0.word, startSeconds: $0.startSeconds - start, endSeconds: $0.endSeconds - start) }
    }
}

@Suite("Finals at agreed sentence ends (local agreement)")
struct SentenceFinalTests {
    let clock = ManualClock()
    let worker = ManualDecodeWorker()

    static func word(_ text: String, _ start: Double, _ end: Double) -> WordTiming {
        WordTiming(word: text, startSeconds: start, endSeconds: end)
    }

    /// Feeds the audio 0.1 s at a time, the clock moving with it; every decode submitted finishes
    /// before the next block (a fast engine), so its result comes with the next block's events.
    func feed(_ recognizer: UtteranceRecognizer, _ samples: [Float]) throws -> [(at: Double, event: RecognitionEvent)] {
        var events: [(Double, RecognitionEvent)] = []
        for start in stride(from: 0, to: samples.count, by: 100) {
            let at = Double(start + 100) / 1_000
            events += try recognizer.accept(.float32(Array(samples[start..<min(samples.count, start + 100)]))).map { (at, $0) }
            worker.drain()
            clock.advance(by: 0.1)
        }
        return events + (try recognizer.finish()).map { (Double(samples.count) / 1_000, $0) }
    }

    @Test("two sentences with only a breath between them: the first is final as soon as two decodes agree on it, split in the breath, with its word times")
    func sentenceSplit() throws {
        // "One two." 1.0 … 2.0 s, a 0.1 s breath, "Three four five six seven." 2.1 … 6.0 s, then silence.
        let script = [
            Self.word("One", 1.0, 1.4), Self.word("two.", 1.5, 2.0),
            Self.word("Three", 2.2, 2.6), Self.word("four", 2.7, 3.2), Self.word("five", 3.3, 3.9),
            Self.word("six", 4.0, 4.6), Self.word("seven.", 4.7, 6.0),
        ]
        let decoder = TimelineDecoder(script)
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: TimelineDetector(), decoder: decoder,
                                             worker: worker, clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        let audio = TimelineAudio.samples([(false, 1), (true, 1), (false, 0.1), (true, 3.9), (false, 1.5)])
        let events = try feed(recognizer, audio)
        let finals = events.compactMap { if case .final(let segment) = $0.event { ($0.at, segment) } else { nil } }
        #expect(finals.map(\.1) == [
            TranscriptSegment(text: "One two.", startSeconds: 1.0, endSeconds: 2.0, words: Array(script[0..<2])),
            TranscriptSegment(text: "Three four five six seven.", startSeconds: 2.2, endSeconds: 6.0, words: Array(script[2...])),
        ])
        // The breath's 0.1 s covered the end padding: a look-ahead decode (0.8 … 2.1 s) heard "One two.";
        // the next decode, an interim a second later (0.8 … 3.1 s), agreed and went on: the first
        // sentence is final 1.2 s after its end, long before any pause.
        #expect(finals.first?.0 == 3.2)
        // The second sentence's decodes start at the split, the middle of the breath's window (2.05 s).
        #expect(decoder.calls.map(\.start) == [0.8, 0.8, 2.05, 2.05, 2.05, 2.05])
        #expect(decoder.calls.last.map { !$0.interim && $0.end == 6.1 } == true)
    }
}

extension SentenceFinalTests {
    @Test("a 7 s sentence with no pause and no punctuation inside is final in pieces while it is spoken, every word once and in order")
    func longSentenceSplitBetweenWords() throws {
        // Twelve words, 0.5 s each with 0.1 s between, 1.0 … 8.1 s; only the last ends the sentence.
        let script = (0..<12).map { index in
            Self.word(index == 11 ? "twelve." : "w\(index + 1)", 1.0 + 0.6 * Double(index), 1.5 + 0.6 * Double(index))
        }
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: TimelineDetector(),
                                             decoder: TimelineDecoder(script), worker: worker, clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        let events = try feed(recognizer, TimelineAudio.samples([(false, 1), (true, 7.2), (false, 1.5)]))
        let finals = events.compactMap { if case .final(let segment) = $0.event { ($0.at, segment) } else { nil } }
        // (Times go through the stream offset and back: compared to the microsecond.)
        func rounded(_ words: [WordTiming]) -> [String] {
            words.map { String(format: "%@ %.6f %.6f", $0.word, $0.startSeconds, $0.endSeconds) }
        }
        #expect(rounded(finals.flatMap(\.1.words)) == rounded(script))
        // The decode of 0.8 … 6.3 s (w1 … w9) agreed with the one before it (… w7) on words spanning
        // 4.1 s: split at the last of the equal 0.1 s gaps among them, after w6; the first piece is
        // final at 6.4 s, 1.7 s before the sentence ends. The rest ends with the speech.
        #expect(finals.map { String(format: "%.1f %.2f %.2f ", $0.0, $0.1.startSeconds, $0.1.endSeconds) + $0.1.text } == [
            "6.4 1.00 4.50 w1 w2 w3 w4 w5 w6", "8.4 4.60 8.10 w7 w8 w9 w10 w11 twelve.",
        ])
    }
}

/// Answers each decode with the words of `answers`, one list per call in order, times from the decode's first sample.
final class ListDecoder: UtteranceDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [[WordTiming]]
    init(_ answers: [[WordTiming]]) { self.answers = answers }
    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        lock.withLock { answers.isEmpty ? [] : answers.removeFirst() }
    }
}

@Suite("No words twice across a cut, none invented by a loop")
struct CutPipelineTests {
    static func word(_ text: String, _ start: Double, _ end: Double) -> WordTiming {
        WordTiming(word: text, startSeconds: start, endSeconds: end)
    }

    @Test("20 s without a pause decoded in two pieces cut at 15 s; words the second piece repeats right at the cut are dropped, a loop is cut to three copies")
    func overlapAndLoopAcrossForcedCut() throws {
        let decoder = ListDecoder([
            [Self.word("in", 13.0, 13.4), Self.word("his", 13.5, 13.9), Self.word("power", 14.0, 14.5),
             Self.word("to", 14.6, 14.8), Self.word("do", 14.85, 15.0)],
            // The second piece (from 14.95 s) starts with "to do" again, then loops on "them."
            [Self.word("to", 0.0, 0.1), Self.word("do", 0.1, 0.2), Self.word("for", 0.5, 0.9)]
                + (0..<10).map { Self.word("them.", 1.0 + Double($0) * 0.05, 1.05 + Double($0) * 0.05) },
        ])
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), clock: ManualClock(), interims: false, packing: .alone)
        var events: [RecognitionEvent] = []
        let speech = [Float](repeating: 1, count: 20_000)
        for start in stride(from: 0, to: speech.count, by: 100) {
            events += try recognizer.accept(.float32(Array(speech[start..<start + 100])))
        }
        events += try recognizer.finish()
        let finals = events.compactMap { if case .final(let segment) = $0 { segment } else { nil } }
        #expect(finals.map(\.text) == ["in his power to do", "for them. them. them."])
        #expect(finals.map(\.startSeconds) == [13.0, 15.45])
    }
}
