import Foundation

/// A voice activity detector that gives one speech probability per fixed window of mono float samples.
/// Implemented on Linux by `SileroVoiceActivityDetector` (whisper.cpp's `whisper_vad_*`).
public protocol VoiceActivityDetector: AnyObject {
    /// Samples per probability (512 at 16 kHz for Silero VAD).
    var windowSamples: Int { get }
    /// One probability in [0, 1] per window; `samples.count` is a multiple of `windowSamples`.
    /// The detector keeps its state from one call to the next.
    func speechProbabilities(_ samples: [Float]) throws -> [Float]
}

/// Decodes one utterance at a time. Implemented on Linux by `WhisperDecoder` (whisper.cpp).
/// Called on the decode worker's thread, one call at a time.
public protocol UtteranceDecoder: AnyObject, Sendable {
    /// The recognized words of `samples` (mono, the recognizer's rate), with times in seconds from
    /// the first sample; empty for no speech. At most `maxTokens` tokens are decoded. `interim` is true
    /// for a decode of an utterance still in progress, which may trade accuracy for speed.
    func decode(_ samples: [Float], maxTokens: Int, interim: Bool) throws -> [WordTiming]
}

/// Where decodes run: at most one at a time, in the order submitted.
public protocol DecodeWorker: Sendable {
    /// Runs `job` after the jobs submitted before it (possibly on another thread, possibly at once).
    func submit(_ job: @escaping @Sendable () -> Void)
    /// Returns once every submitted job has run.
    func drain()
}

/// Runs each job at once on the caller's thread: files decode in order, no interim decodes needed.
public struct InlineDecodeWorker: DecodeWorker {
    public init() {}
    public func submit(_ job: @escaping @Sendable () -> Void) { job() }
    public func drain() {}
}

/// Runs jobs one after another on a background queue, so a live recording never waits for a decode.
public final class BackgroundDecodeWorker: DecodeWorker {
    private let queue = DispatchQueue(label: "livetranscriber.decode", qos: .userInitiated)
    public init() {}
    public func submit(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
    public func drain() { queue.sync {} }
}

/// A `SpeechRecognizer` for engines that decode whole utterances (Whisper): voice activity detection
/// cuts the stream into utterances (`VoiceActivitySegmenter`), each is decoded once at its end into a
/// final segment, and the open utterance is re-decoded now and then for interim text
/// (`PartialDecodeSchedule`).
///
/// At most one decode runs at a time. Finals wait in order and are never dropped; an interim decode
/// that comes due while a decode runs or a final waits is dropped. Results are returned by the
/// `accept(_:)` call after they complete; `finish()` waits for all finals. Word and segment times
/// are seconds from the start of the stream.
public final class UtteranceRecognizer: SpeechRecognizer {
    public let language: String
    public let inputFormat: RecognizerInputFormat
    public let delivery = RecognitionDelivery.utterances

    private let detector: any VoiceActivityDetector
    private let decoder: any UtteranceDecoder
    private let worker: any DecodeWorker
    private let clock: any WallClock
    private let interims: Bool
    private var segmenter: VoiceActivitySegmenter
    private var schedule: PartialDecodeSchedule

    /// Samples of the stream from `bufferStart` on, enough to cut any utterance still to come.
    private var buffer: [Float] = []
    private var bufferStart = 0
    /// Samples not yet a whole VAD window.
    private var unwindowed: [Float] = []
    /// Cut utterances waiting to be decoded, oldest first.
    private var waitingFinals: [(start: Int, samples: [Float])] = []
    /// Utterances cut so far: an interim decode started for an earlier number is stale.
    private var utteranceNumber = 0
    private let mailbox = Mailbox()

    /// - Parameters:
    ///   - interims: re-decode the open utterance for interim text (live); off for files.
    ///   - clock: paces interim decodes (wall time).
    public init(
        language: String, sampleRate: Int, detector: any VoiceActivityDetector, decoder: any UtteranceDecoder,
        worker: any DecodeWorker, clock: any WallClock = SystemClock(), interims: Bool,
        settings: VoiceActivitySettings = VoiceActivitySettings(), schedule: PartialDecodeSchedule = PartialDecodeSchedule()
    ) {
        self.language = language
        self.detector = detector
        self.decoder = decoder
        self.worker = worker
        self.clock = clock
        self.interims = interims
        self.schedule = schedule
        self.segmenter = VoiceActivitySegmenter(windowSamples: detector.windowSamples, sampleRate: sampleRate, settings: settings)
        self.inputFormat = RecognizerInputFormat(sampleRate: sampleRate, encoding: .float32, blockSamples: detector.windowSamples * 4)
    }

    /// True while a decode runs (for tests and the benchmark).
    public var decodeInFlight: Bool { mailbox.inFlight }

    public func accept(_ samples: RecognizerSamples) throws -> [RecognitionEvent] {
        let floats = samples.floats
        buffer += floats
        unwindowed += floats
        let whole = unwindowed.count / detector.windowSamples * detector.windowSamples
        if whole > 0 {
            let probabilities = try detector.speechProbabilities(Array(unwindowed[..<whole]))
            unwindowed.removeFirst(whole)
            for probability in probabilities {
                for cut in segmenter.add(probability: probability) { queueFinal(cut) }
            }
        }
        trimBuffer()
        return try schedule(finishing: false)
    }

    public func finish() throws -> [RecognitionEvent] {
        if !unwindowed.isEmpty {
            let padded = unwindowed + [Float](repeating: 0, count: detector.windowSamples - unwindowed.count)
            for probability in try detector.speechProbabilities(padded) {
                for cut in segmenter.add(probability: probability) { queueFinal(cut) }
            }
            unwindowed = []
        }
        for cut in segmenter.finish() { queueFinal(cut) }
        var events: [RecognitionEvent] = []
        repeat {
            worker.drain()
            events += try schedule(finishing: true)
        } while mailbox.inFlight || !waitingFinals.isEmpty
        return events + (try collect())
    }

    private func queueFinal(_ cut: UtteranceCut) {
        let from = max(cut.startSample, bufferStart) - bufferStart
        let to = min(cut.endSample - bufferStart, buffer.count)
        waitingFinals.append((start: cut.startSample, samples: from < to ? Array(buffer[from..<to]) : []))
        utteranceNumber += 1
        schedule.utteranceEnded()
    }

    /// Keeps only what an utterance still to be cut can need: from the open utterance's start, or the padding before now.
    private func trimBuffer() {
        let padding = Int(segmenter.settings.paddingSeconds * Double(inputFormat.sampleRate)) + detector.windowSamples
        let keepFrom = segmenter.openStartSample ?? max(0, segmenter.sampleCount - padding)
        let drop = min(buffer.count, keepFrom - bufferStart)
        if drop > inputFormat.sampleRate {  // trim in steps of at least a second, not every block
            buffer.removeFirst(drop)
            bufferStart += drop
        }
    }

    /// Collects finished decodes and starts the next one: a waiting final first, else an interim when due.
    private func schedule(finishing: Bool) throws -> [RecognitionEvent] {
        var events: [RecognitionEvent] = []
        while true {
            events += try collect()
            if mailbox.inFlight { break }
            if !waitingFinals.isEmpty {
                let next = waitingFinals.removeFirst()
                start(samples: next.samples, offset: next.start, final: true, utterance: utteranceNumber)
                continue
            }
            guard interims, !finishing, let open = segmenter.openStartSample else { break }
            let openSeconds = Double(bufferStart + buffer.count - open) / Double(inputFormat.sampleRate)
            let now = clock.now()
            guard schedule.shouldStartInterim(now: now, utteranceSeconds: openSeconds, decodeInFlight: false, finalsWaiting: false)
            else { break }
            schedule.interimStarted(at: now)
            start(samples: Array(buffer[(open - bufferStart)...]), offset: open, final: false, utterance: utteranceNumber)
            if mailbox.inFlight { break }
        }
        return events
    }

    private func start(samples: [Float], offset: Int, final: Bool, utterance: Int) {
        let seconds = Double(samples.count) / Double(inputFormat.sampleRate)
        let maxTokens = schedule.tokenLimit(audioSeconds: seconds)
        let offsetSeconds = Double(offset) / Double(inputFormat.sampleRate)
        let decoder = self.decoder
        let mailbox = self.mailbox
        mailbox.begin()
        worker.submit {
            let outcome: Result<[WordTiming], any Error> = Result { try decoder.decode(samples, maxTokens: maxTokens, interim: !final) }
            mailbox.complete(Completed(final: final, utterance: utterance, offsetSeconds: offsetSeconds,
                                       endSeconds: offsetSeconds + seconds, words: outcome))
        }
    }

    private func collect() throws -> [RecognitionEvent] {
        var events: [RecognitionEvent] = []
        for done in mailbox.take() {
            let words = try done.words.get().map {
                WordTiming(word: $0.word, startSeconds: $0.startSeconds + done.offsetSeconds,
                           endSeconds: min(done.endSeconds, $0.endSeconds + done.offsetSeconds))
            }
            if done.final {
                guard let first = words.first, let last = words.last else { continue }
                let text = words.map(\.word).joined(separator: " ")
                events.append(.final(TranscriptSegment(text: text, startSeconds: first.startSeconds,
                                                       endSeconds: max(first.startSeconds, last.endSeconds), words: words)))
            } else if done.utterance == utteranceNumber, !words.isEmpty {
                // An interim for an utterance that has since been cut would show stale text after its final.
                events.append(.interim(words.map(\.word).joined(separator: " ")))
            }
        }
        return events
    }

    private struct Completed: Sendable {
        var final: Bool
        var utterance: Int
        var offsetSeconds: Double
        var endSeconds: Double
        var words: Result<[WordTiming], any Error>
    }

    /// Finished decodes, handed from the worker's thread to the caller's.
    private final class Mailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var running = false
        private var done: [Completed] = []

        var inFlight: Bool { lock.withLock { running } }
        func begin() { lock.withLock { running = true } }
        func complete(_ result: Completed) {
            lock.withLock {
                done.append(result)
                running = false
            }
        }
        func take() -> [Completed] {
            lock.withLock {
                defer { done = [] }
                return done
            }
        }
    }
}
