import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// A decoder that answers the same words whatever it is given (times from the decode's first sample),
/// as a looping engine writes words on once the audio runs out; it records each decode's length.
private final class OverrunningDecoder: UtteranceDecoder, @unchecked Sendable {
    static let words = [
        WordTiming(word: "one", startSeconds: 0.2, endSeconds: 0.6),
        WordTiming(word: "two", startSeconds: 1.0, endSeconds: 1.4),
        WordTiming(word: "three", startSeconds: 2.0, endSeconds: 2.5),
        WordTiming(word: "four", startSeconds: 2.3, endSeconds: 2.3),
        WordTiming(word: "five", startSeconds: 2.4, endSeconds: 2.4),
        WordTiming(word: "six", startSeconds: 9.0, endSeconds: 9.0),
    ]
    private let lock = NSLock()
    private var lengths: [(samples: Int, interim: Bool)] = []
    var calls: [(samples: Int, interim: Bool)] { lock.withLock { lengths } }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        lock.withLock { lengths.append((samples.count, interim)) }
        return Self.words
    }
}

@Suite("Utterance recognizer: words stamped past the decoded audio")
struct PastAudioWordsTests {
    static func speech(_ seconds: Double) -> [Float] { [Float](repeating: 1, count: Int(seconds * 1_000)) }
    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * 1_000)) }

    func feed(_ recognizer: UtteranceRecognizer, _ samples: [Float], clock: ManualClock) throws -> [RecognitionEvent] {
        try UtteranceRecognizerTests.feed(recognizer, samples, clock: clock)
    }

    @Test("a file's final decoded alone keeps only the words within its utterance's 2.3 s: past its end they are dropped, at its end kept")
    func finals() throws {
        let decoder = OverrunningDecoder()
        let clock = ManualClock()
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), clock: clock, interims: false, packing: .alone)
        var events = try feed(recognizer, Self.silence(2) + Self.speech(2) + Self.silence(1), clock: clock)
        events += try recognizer.finish()
        // The utterance is cut from 1.8 s to 4.1 s: "three" ends past its end, "four" is stamped at it,
        // "five" and "six" start past it.
        #expect(decoder.calls.map(\.samples) == [2_300])
        #expect(events == [.final(TranscriptSegment(text: "one two three four", startSeconds: 2.0, endSeconds: 4.1, words: [
            WordTiming(word: "one", startSeconds: 2.0, endSeconds: 2.4), WordTiming(word: "two", startSeconds: 2.8, endSeconds: 3.2),
            WordTiming(word: "three", startSeconds: 3.8, endSeconds: 4.1), WordTiming(word: "four", startSeconds: 4.1, endSeconds: 4.1),
        ]))])
    }

    @Test("a live recording's interim text and final keep only the words within the audio each decode was given")
    func interims() throws {
        let decoder = OverrunningDecoder()
        let clock = ManualClock()
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), clock: clock, interims: true, schedule: .firstInterimAfter(1.5))
        var events = try feed(recognizer, Self.silence(1) + Self.speech(3) + Self.silence(1), clock: clock)
        events += try recognizer.finish()
        let texts = events.map { event -> String in
            switch event {
            case .interim(let text): "interim: \(text)"
            case .final(let segment): "final: \(segment.text)"
            }
        }
        // Interims of 1.5 s and 2.5 s of the open utterance (from 0.8 s), then its final of 3.3 s: each
        // keeps the words that start within it; "six" (at 9 s) is in none.
        #expect(decoder.calls.map(\.samples) == [1_500, 2_500, 3_300])
        #expect(decoder.calls.map(\.interim) == [true, true, false])
        #expect(texts == ["interim: one two", "interim: one two three four five", "interim: one two three four five",
                          "final: one two three four five"])
    }
}
