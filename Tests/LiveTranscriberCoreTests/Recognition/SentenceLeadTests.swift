import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Sentence lead: the rest of a split sentence is decoded with the audio before the split")
struct SentenceLeadTests {
    /// (last word split off, start of the utterance split, cut, the previous lead) → the lead, at 1 kHz.
    static let leads: [(word: String, utteranceStart: Int, cut: Int, previous: SentenceLead?, lead: SentenceLead?)] = [
        // A sentence end: the rest starts a new sentence.
        ("them.", 0, 2_000, nil, nil),
        ("Why?", 0, 2_000, nil, nil),
        // A clause end or a word: from the utterance's start, at most 2.5 s before the cut.
        ("woman,", 1_000, 3_000, nil, SentenceLead(startSample: 1_000, cutSample: 3_000)),
        ("rather", 1_000, 6_000, nil, SentenceLead(startSample: 3_500, cutSample: 6_000)),
        // "Mr." is an abbreviation, not a sentence end.
        ("Mr.", 1_000, 2_000, nil, SentenceLead(startSample: 1_000, cutSample: 2_000)),
        // Split twice: back into the first piece's lead, still at most 2.5 s; an unrelated lead is not used.
        ("and", 2_000, 3_000, SentenceLead(startSample: 1_000, cutSample: 2_000), SentenceLead(startSample: 1_000, cutSample: 3_000)),
        ("and", 2_000, 4_000, SentenceLead(startSample: 1_000, cutSample: 2_000), SentenceLead(startSample: 1_500, cutSample: 4_000)),
        ("and", 2_500, 3_000, SentenceLead(startSample: 1_000, cutSample: 2_000), SentenceLead(startSample: 2_500, cutSample: 3_000)),
    ]

    @Test("no lead after a sentence end; after a clause or a word, from the sentence's start (through an earlier split of it), at most 2.5 s before the cut",
          arguments: 0..<leads.count)
    func leadStart(case index: Int) {
        let row = Self.leads[index]
        #expect(SentenceLead.lead(splitting: row.word, utteranceStart: row.utteranceStart, cut: row.cut, previous: row.previous,
                                  sampleRate: 1_000) == row.lead)
    }

    @Test("of a decode that started in the lead, the words whose middle is at or after the cut are kept")
    func wordsAfterCut() {
        let words = [
            WordTiming(word: "cold-hearted", startSeconds: 1.0, endSeconds: 1.8),
            WordTiming(word: "and", startSeconds: 1.9, endSeconds: 2.1),
            WordTiming(word: "rather", startSeconds: 2.05, endSeconds: 2.5),
            WordTiming(word: "selfish", startSeconds: 2.6, endSeconds: 3.0),
        ]
        #expect(SentenceLead.after(words, cutSeconds: 2.2).map(\.word) == ["rather", "selfish"])
        #expect(SentenceLead.after(words, cutSeconds: 2.0).map(\.word) == ["and", "rather", "selfish"])
        #expect(SentenceLead.after(words, cutSeconds: 0).map(\.word) == words.map(\.word))
    }
}

/// A perfect engine (`TimelineDecoder`) that misreads "ill" as "all" when the audio it is given
/// starts less than a second before the word: a fragment decoded without the sentence before it.
private final class FragmentMisreadingDecoder: UtteranceDecoder, @unchecked Sendable {
    let timeline: TimelineDecoder
    init(_ script: [WordTiming]) { timeline = TimelineDecoder(script) }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        try timeline.decode(samples, maxTokens: maxTokens, interim: interim, cancellation: cancellation).map {
            $0.word == "ill" && $0.startSeconds < 1 ? WordTiming(word: "all", startSeconds: $0.startSeconds, endSeconds: $0.endSeconds) : $0
        }
    }
}

extension SentenceFinalTests {
    @Test("the rest of a sentence split between words is decoded for its final from 2.5 s before the split: read in its sentence, each word once")
    func restDecodedWithLead() throws {
        // Twelve words, 0.5 s each with 0.1 s between, 1.0 … 8.1 s; the seventh is "ill", right after the split.
        let script: [WordTiming] = (0..<12).map { index in
            let text = index == 6 ? "ill" : index == 11 ? "twelve." : "w\(index + 1)"
            let start = 1.0 + 0.6 * Double(index)
            return Self.word(text, start, start + 0.5)
        }
        let decoder = FragmentMisreadingDecoder(script)
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: TimelineDetector(),
                                             decoder: decoder, worker: worker, clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        let events = try feed(recognizer, TimelineAudio.samples([(false, 1), (true, 7.2), (false, 1.5)]))
        let finals: [TranscriptSegment] = events.compactMap { if case .final(let segment) = $0.event { segment } else { nil } }
        // Split after w6 at 4.55 s (as without the misreading); the rest's final decode starts at
        // 2.05 s, hears "w3 … w6" before the cut and drops them.
        #expect(finals.map(\.text) == ["w1 w2 w3 w4 w5 w6", "ill w8 w9 w10 w11 twelve."])
        let final = decoder.timeline.calls.last
        #expect(final.map { !$0.interim && abs($0.start - 2.05) < 1e-9 } == true)
        // Its interims, decoded from the cut, read the fragment: "all".
        #expect(events.contains { if case .interim(let text) = $0.event { text.hasPrefix("all w8") } else { false } })
    }

    @Test("a stop that abandons the rest's final (decoded from its lead at 2.05 s) says the audio from the cut at 4.55 s has no transcript, not from the lead")
    func abandonedRestStartsAtTheCut() throws {
        let script: [WordTiming] = (0..<12).map { index in
            let start = 1.0 + 0.6 * Double(index)
            return Self.word(index == 11 ? "twelve." : "w\(index + 1)", start, start + 0.5)
        }
        let decoder = TimelineDecoder(script)
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: TimelineDetector(),
                                             decoder: decoder, worker: worker, clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        // The speech only, no silence after it: the rest is still open when the stop comes.
        let audio = TimelineAudio.samples([(false, 1), (true, 7.2)])
        var finals: [String] = []
        for start in stride(from: 0, to: audio.count, by: 100) {
            for event in try recognizer.accept(.float32(Array(audio[start..<min(audio.count, start + 100)]))) {
                if case .final(let segment) = event { finals.append(segment.text) }
            }
            worker.drain()
            clock.advance(by: 0.1)
        }
        #expect(finals == ["w1 w2 w3 w4 w5 w6"])
        // The stop queues the rest's final (its decode held by the worker) and abandons it at once.
        let ending = try recognizer.finish(stopRequested: true, abandoning: { true })
        #expect(ending.untranscribedFromSeconds == 4.55)
        #expect(decoder.calls.last.map { !$0.interim && abs($0.start - 2.05) < 1e-9 } == true)
    }
}
