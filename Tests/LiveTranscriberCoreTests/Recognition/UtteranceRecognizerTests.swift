import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Synchronization
import Testing

/// A detector that reads speech from the samples themselves: a window whose first sample is 1 is speech.
final class ScriptedDetector: VoiceActivityDetector {
    let windowSamples = 100
    func speechProbabilities(_ samples: [Float]) throws -> [Float] {
        stride(from: 0, to: samples.count, by: windowSamples).map { samples[$0] == 1 ? 0.9 : 0.05 }
    }
}

/// A decoder that answers one word per second of audio ("w0 w1 …"), recording what it was asked;
/// a decode cancelled before it runs throws `CancellationError`, as a real engine stops at once.
final class ScriptedDecoder: UtteranceDecoder, @unchecked Sendable {
    struct Call: Equatable {
        var samples: Int
        var maxTokens: Int
        var interim: Bool
        var cancelled = false
    }
    private let lock = NSLock()
    private var recorded: [Call] = []
    var calls: [Call] { lock.withLock { recorded } }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        let cancelled = cancellation.isCancelled
        lock.withLock { recorded.append(Call(samples: samples.count, maxTokens: maxTokens, interim: interim, cancelled: cancelled)) }
        if cancelled { throw CancellationError() }
        let seconds = samples.count / 1_000
        return (0..<max(1, seconds)).map { WordTiming(word: "w\($0)", startSeconds: Double($0), endSeconds: Double($0) + 0.5) }
    }
}

/// `ScriptedDecoder` whose every decode drops "Thank you for watching." heard 0.5 s into its audio.
final class InventingDecoder: UtteranceDecoder, @unchecked Sendable {
    let words = ScriptedDecoder()
    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        try words.decode(samples, maxTokens: maxTokens, interim: interim, cancellation: cancellation)
    }
    func droppedPhrasesOfLastDecode() -> [DroppedPhrase] { [DroppedPhrase(text: "Thank you for watching.", startSeconds: 0.5)] }
}

/// A worker that holds jobs until the test runs them, so a decode stays "in flight" as long as the test wants.
final class ManualDecodeWorker: DecodeWorker, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [@Sendable () -> Void] = []
    var pending: Int { lock.withLock { jobs.count } }

    func submit(_ job: @escaping @Sendable () -> Void) { lock.withLock { jobs.append(job) } }
    /// Runs the oldest held job.
    func runNext() {
        let job = lock.withLock { jobs.isEmpty ? nil : jobs.removeFirst() }
        job?()
    }
    func drain() { while pending > 0 { runNext() } }
}

@Suite("Utterance recognizer: cutting, finals and interim decodes")
struct UtteranceRecognizerTests {
    let clock = ManualClock()
    let decoder = ScriptedDecoder()
    let worker = ManualDecodeWorker()

    /// Without interims (a file), each utterance is decoded alone unless `packing` says otherwise.
    func recognizer(interims: Bool = true, packing: UtterancePacking = .alone) -> UtteranceRecognizer {
        UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                            worker: worker, clock: clock, interims: interims, schedule: .firstInterimAfter(1.5), packing: packing)
    }

    static func speech(_ seconds: Double) -> [Float] { [Float](repeating: 1, count: Int(seconds * 1_000)) }
    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * 1_000)) }

    /// Feeds `samples` 0.1 s at a time, the clock moving with the audio.
    func feed(_ recognizer: UtteranceRecognizer, _ samples: [Float]) throws -> [RecognitionEvent] {
        try Self.feed(recognizer, samples, clock: clock)
    }

    /// Feeds `samples` (1 kHz) 0.1 s at a time, `clock` moving with the audio.
    static func feed(_ recognizer: UtteranceRecognizer, _ samples: [Float], clock: ManualClock) throws -> [RecognitionEvent] {
        var events: [RecognitionEvent] = []
        for start in stride(from: 0, to: samples.count, by: 100) {
            events += try recognizer.accept(.float32(Array(samples[start..<min(samples.count, start + 100)])))
            clock.advance(by: 0.1)
        }
        return events
    }

    @Test("an utterance becomes one final with times from the start of the stream, once its decode is done")
    func finalWithOffsets() throws {
        let recognizer = recognizer(interims: false)
        var events = try feed(recognizer, Self.silence(2) + Self.speech(2) + Self.silence(1))
        #expect(events.isEmpty)
        #expect(worker.pending == 1)
        #expect(recognizer.decodeInFlight)
        worker.runNext()
        events = try feed(recognizer, Self.silence(0.1))
        // Cut from 1.8 s (0.2 s padding) to 4.1 s (0.1 s end padding): 2.3 s of audio, two words from 1.8 s on.
        #expect(events == [.final(TranscriptSegment(text: "w0 w1", startSeconds: 1.8, endSeconds: 3.3, words: [
            WordTiming(word: "w0", startSeconds: 1.8, endSeconds: 2.3), WordTiming(word: "w1", startSeconds: 2.8, endSeconds: 3.3),
        ]))])
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 2_300, maxTokens: 37, interim: false)])
    }

    @Test("a phrase a final's decode dropped as invented is noted once, at its time from the start of the stream; interim decodes note nothing")
    func droppedPhrasesNoted() throws {
        let recognizer = UtteranceRecognizer(language: "en-US", sampleRate: 1_000, detector: ScriptedDetector(), decoder: InventingDecoder(),
                                             worker: InlineDecodeWorker(), clock: clock, interims: true, schedule: .firstInterimAfter(1.5),
                                             packing: .alone)
        _ = try feed(recognizer, Self.silence(2) + Self.speech(4))
        #expect(recognizer.notes == [])  // interims only so far
        _ = try feed(recognizer, Self.silence(1))
        _ = try recognizer.finish()
        // The utterance's audio starts at 1.8 s (0.2 s padding): heard at 2.3 s.
        #expect(recognizer.notes == [InventedPhrases.note("Thank you for watching.", startSeconds: 2.3)])
        #expect(recognizer.notes == ["Dropped “Thank you for watching.” at 0:02: a phrase Whisper is known to invent, decoded with little confidence."])
    }

    @Test("a stream ended early: the decode in flight is cancelled and joined, the utterances waiting are dropped, and the ending says where the transcript stops")
    func finishAbandoning() throws {
        let recognizer = recognizer(interims: false)
        // Two utterances: 1.8 to 4.1 s (its decode held in flight) and 4.8 to 7.1 s (waiting).
        _ = try feed(recognizer, Self.silence(2) + Self.speech(2) + Self.silence(1) + Self.speech(2) + Self.silence(1))
        #expect(worker.pending == 1)
        #expect(recognizer.untranscribedSamples == 6_200)  // 8 s accepted, nothing transcribed from 1.8 s on
        var asked = 0
        let ending = try recognizer.finish(stopRequested: true, abandoning: { [worker] in
            asked += 1
            if asked == 1 { worker.runNext() }  // the first final's decode finishes while the stop waits
            return asked == 2
        })
        #expect(ending.events.compactMap { event -> String? in
            if case .final(let segment) = event { return segment.text }
            return nil
        } == ["w0 w1"])
        #expect(ending.untranscribedFromSeconds == 4.8)
        #expect(worker.pending == 0)  // the cancelled decode has run out: nothing is left to run
        #expect(decoder.calls.map(\.cancelled) == [false, true])
        #expect(!recognizer.decodeInFlight)
    }

    @Test("releasing a recognizer with a decode in flight cancels it and waits for it: no decode outlives its recognizer")
    func releaseJoinsTheDecode() throws {
        var recognizer: UtteranceRecognizer? = recognizer(interims: false)
        _ = try feed(recognizer!, Self.silence(2) + Self.speech(2) + Self.silence(1))
        #expect(worker.pending == 1)
        recognizer = nil
        #expect(worker.pending == 0)
        #expect(decoder.calls.map(\.cancelled) == [true])
    }

    @Test("cancel after a failure: the decode in flight is cancelled and joined, the waiting one never starts")
    func cancelJoins() throws {
        let recognizer = recognizer(interims: false)
        _ = try feed(recognizer, Self.silence(2) + Self.speech(2) + Self.silence(1) + Self.speech(2) + Self.silence(1))
        recognizer.cancel()
        #expect(worker.pending == 0)
        #expect(decoder.calls.map(\.cancelled) == [true])
        #expect(!recognizer.decodeInFlight)
    }

    @Test("with the first interim decode due at 1.5 s of an utterance: none before it, then about one per second")
    func interimPacing() throws {
        let recognizer = recognizer()
        // The utterance opens at 0.8 s (padding); 1.4 s of it: no interim yet.
        _ = try feed(recognizer, Self.silence(1) + Self.speech(1.2))
        #expect(worker.pending == 0)
        // At 1.5 s of utterance (clock 2.2 s) the first interim decode starts.
        _ = try feed(recognizer, Self.speech(0.1))
        #expect(worker.pending == 1)
        worker.runNext()
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 1_500, maxTokens: 9, interim: true)])
        let events = try feed(recognizer, Self.speech(0.1))
        #expect(events == [.interim("w0")])
        // Less than a second since it started (clock 2.3 … 3.1 s): none.
        _ = try feed(recognizer, Self.speech(0.8))
        #expect(worker.pending == 0)
        // A second after (clock 3.2 s): the next.
        _ = try feed(recognizer, Self.speech(0.1))
        #expect(worker.pending == 1)
    }

    @Test("a due interim is dropped while a decode runs: never more than one decode in flight")
    func oneDecodeInFlight() throws {
        let recognizer = recognizer()
        _ = try feed(recognizer, Self.silence(1) + Self.speech(2))
        #expect(worker.pending == 1)
        // Ten more seconds of speech while the first interim never finishes: nothing else is submitted.
        _ = try feed(recognizer, Self.speech(10))
        #expect(worker.pending == 1)
        worker.runNext()
        #expect(decoder.calls.count == 1)
        // The next accept collects it (the utterance as it was when the decode started: 1.5 s, one word)
        // and starts one new decode of the whole open utterance, now 12.3 s (from 0.8 s to 13.1 s).
        let events = try feed(recognizer, Self.speech(0.1))
        #expect(events == [.interim("w0")])
        #expect(worker.pending == 1)
        worker.runNext()
        #expect(decoder.calls.last == ScriptedDecoder.Call(samples: 12_300, maxTokens: 74, interim: true))
    }

    @Test("finals wait for the final decode in flight and come out in order, none dropped")
    func finalsQueue() throws {
        let recognizer = recognizer()
        var events = try feed(recognizer, Self.silence(1) + Self.speech(2))   // an interim starts
        events += try feed(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1) + Self.speech(1) + Self.silence(1))
        // The cancelled interim and the first utterance's final decode are held; the two utterances cut meanwhile wait.
        #expect(worker.pending == 2)
        events += try recognizer.finish()
        let finals = events.compactMap { if case .final(let segment) = $0 { segment.startSeconds } else { nil } }
        #expect(finals == [0.8, 3.8, 5.8])
        #expect(!events.contains { if case .interim = $0 { true } else { false } })
        #expect(decoder.calls.map(\.interim) == [true, false, false, false])
        #expect(decoder.calls.map(\.cancelled) == [true, false, false, false])
    }

    @Test("once the silence covers an utterance's end padding, the interim in flight is cancelled and the final decode starts; the cut then gives the final at once")
    func lookAheadFinal() throws {
        let recognizer = recognizer()
        _ = try feed(recognizer, Self.silence(1) + Self.speech(2))
        #expect(worker.pending == 1)  // an interim decode, not yet run
        // 0.1 s of silence: all of the utterance's audio (0.8 … 3.1 s) is there, though speech may still
        // go on: the interim is cancelled, the final decode submitted.
        _ = try feed(recognizer, Self.silence(0.1))
        #expect(worker.pending == 2)
        worker.drain()
        #expect(decoder.calls == [
            ScriptedDecoder.Call(samples: 1_500, maxTokens: 9, interim: true, cancelled: true),
            ScriptedDecoder.Call(samples: 2_300, maxTokens: 37, interim: false),
        ])
        // Its words are interim text until the utterance is cut ...
        var events = try feed(recognizer, Self.silence(0.1))
        #expect(events == [.interim("w0 w1")])
        events = try feed(recognizer, Self.silence(0.2))
        #expect(events.isEmpty)
        #expect(worker.pending == 0)  // nothing more to decode while the silence lasts
        // ... after 0.5 s of silence, the cut: the same decode is the final, with nothing more to decode.
        events = try feed(recognizer, Self.silence(0.1))
        #expect(events == [.final(TranscriptSegment(text: "w0 w1", startSeconds: 0.8, endSeconds: 2.3, words: [
            WordTiming(word: "w0", startSeconds: 0.8, endSeconds: 1.3), WordTiming(word: "w1", startSeconds: 1.8, endSeconds: 2.3),
        ]))])
        events = try feed(recognizer, Self.silence(2)) + (try recognizer.finish())
        #expect(events.isEmpty)
        #expect(decoder.calls.count == 2)
    }

    @Test("a final decode still running when the utterance is cut becomes its final")
    func lookAheadRunningAtCut() throws {
        let recognizer = recognizer()
        _ = try feed(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(0.5))  // cut at 2.5 s
        #expect(worker.pending == 1)
        worker.runNext()
        let events = try feed(recognizer, Self.silence(0.1))
        #expect(events == [.final(TranscriptSegment(text: "w0", startSeconds: 0.8, endSeconds: 1.3, words: [
            WordTiming(word: "w0", startSeconds: 0.8, endSeconds: 1.3),
        ]))])
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 1_300, maxTokens: 32, interim: false)])
    }

    @Test("speech resuming after the final decode started: its words are interim text and the utterance goes on")
    func speechResumes() throws {
        let recognizer = recognizer()
        _ = try feed(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(0.2))
        #expect(worker.pending == 1)  // the utterance so far (0.8 … 2.1 s), decoded as its final would be
        _ = try feed(recognizer, Self.speech(0.1))
        #expect(worker.pending == 1)  // not cancelled: its text is still worth showing
        worker.runNext()
        var events = try feed(recognizer, Self.speech(0.1))
        #expect(events == [.interim("w0")])
        events = try feed(recognizer, Self.speech(0.5) + Self.silence(0.5)) + (try recognizer.finish())
        let finals = events.compactMap { if case .final(let segment) = $0 { segment } else { nil } }
        #expect(finals.map(\.startSeconds) == [0.8])
        // One decode of the whole utterance (0.8 … 3.0 s) as its final.
        #expect(decoder.calls.last == ScriptedDecoder.Call(samples: 2_200, maxTokens: 36, interim: false))
        #expect(decoder.calls.filter { !$0.interim && !$0.cancelled }.count == 2)
    }

    @Test("when the utterance's expected end moves, the final decode in flight is cancelled and started again")
    func lookAheadRestarts() throws {
        let recognizer = recognizer()
        _ = try feed(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(0.2))
        #expect(worker.pending == 1)
        _ = try feed(recognizer, Self.speech(0.3) + Self.silence(0.2))
        #expect(worker.pending == 2)
        let events = try feed(recognizer, Self.silence(0.3)) + (try recognizer.finish())
        #expect(decoder.calls == [
            ScriptedDecoder.Call(samples: 1_300, maxTokens: 32, interim: false, cancelled: true),
            ScriptedDecoder.Call(samples: 1_800, maxTokens: 32, interim: false),
        ])
        let finals = events.compactMap { if case .final(let segment) = $0 { segment.text } else { nil } }
        #expect(finals == ["w0"])
    }

    @Test("the stream's end decodes the open utterance; silence alone decodes nothing")
    func finishAndSilence() throws {
        let silent = recognizer(interims: false)
        _ = try feed(silent, Self.silence(30))
        #expect(try silent.finish().isEmpty)
        #expect(decoder.calls.isEmpty)

        let open = recognizer(interims: false)
        _ = try feed(open, Self.silence(1) + Self.speech(3.05))
        let events = try open.finish()
        #expect(events.count == 1)
        // From 0.8 s (padding) to the last sample there is: 3.25 s.
        #expect(decoder.calls == [ScriptedDecoder.Call(samples: 3_250, maxTokens: 52, interim: false)])
    }

    @Test("a long utterance is decoded in pieces of at most 15 s")
    func longUtterance() throws {
        let recognizer = recognizer(interims: false)
        _ = try feed(recognizer, Self.speech(40))
        _ = try recognizer.finish()
        #expect(decoder.calls.count == 3)
        #expect(decoder.calls.allSatisfy { $0.samples <= 15_000 })
        #expect(decoder.calls.map(\.samples).reduce(0, +) == 40_000)
    }
}

extension PartialDecodeSchedule {
    /// The schedule with its first interim decode at `seconds` of an utterance: the scripted
    /// sequences of the recognizer's tests were written for 1.5 s (the default until issue 36 made it 1.0 s).
    static func firstInterimAfter(_ seconds: Double) -> PartialDecodeSchedule {
        var schedule = PartialDecodeSchedule()
        schedule.minimumUtteranceSeconds = seconds
        return schedule
    }
}
