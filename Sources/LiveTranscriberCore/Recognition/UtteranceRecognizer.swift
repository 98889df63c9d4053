import Foundation
import Synchronization

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
    /// Once `cancellation` is cancelled (from another thread) the decode should stop as soon as it can
    /// and throw `CancellationError`; whatever it returns or throws then is not used.
    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming]
    /// True when `identifyLanguage` can tell languages apart (a multilingual model). By default false:
    /// the recognizer then never asks, and "auto" means the fallback language.
    var identifiesLanguages: Bool { get }
    /// The probability of each language in `samples` (mono, the recognizer's rate); nil when the
    /// decoder cannot tell languages apart (a one-language model). Not cancellable. By default nil.
    func identifyLanguage(_ samples: [Float]) throws -> LanguageGuess?
    /// Makes the next decodes use `language` (a BCP 47 tag; Whisper reads its primary subtag).
    /// Called on the worker's thread before each decode. By default ignored.
    func useLanguage(_ language: String)
    /// The probability of each language in the audio the last `decode` heard, from that decode's
    /// own encoder pass (a decoder step, not a second encoding); nil when the decoder cannot tell
    /// languages apart. Not cancellable. By default nil.
    func languageOfLastDecode() throws -> LanguageGuess?
    /// The segments the last `decode` dropped as invented phrases (`InventedPhrases.isInvented`),
    /// times from its first sample. By default none.
    func droppedPhrasesOfLastDecode() -> [DroppedPhrase]
}

extension UtteranceDecoder {
    public var identifiesLanguages: Bool { false }
    public func identifyLanguage(_ samples: [Float]) throws -> LanguageGuess? { nil }
    public func useLanguage(_ language: String) {}
    public func languageOfLastDecode() throws -> LanguageGuess? { nil }
    public func droppedPhrasesOfLastDecode() -> [DroppedPhrase] { [] }
}

/// Asks a running decode to stop: set on the recognizer's thread, read by the decoder on the worker's.
public final class DecodeCancellation: Sendable {
    private let cancelled = Mutex(false)

    public init() {}

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Asks the decode to stop; its result will not be used.
    public func cancel() { cancelled.withLock { $0 = true } }
}

/// Where decodes run: at most one at a time, in the order submitted.
public protocol DecodeWorker: Sendable {
    /// Runs `job` after the jobs submitted before it (possibly on another thread, possibly at once).
    func submit(_ job: @escaping @Sendable () -> Void)
    /// Returns once every submitted job has run.
    func drain()
    /// Returns once every submitted job has run (true) or after `seconds` of wall time (false).
    /// The default waits for all (`drain()`), for workers that run jobs when told or at once.
    func drain(upToSeconds seconds: Double) -> Bool
}

extension DecodeWorker {
    public func drain(upToSeconds seconds: Double) -> Bool {
        drain()
        return true
    }
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
    public func drain(upToSeconds seconds: Double) -> Bool {
        let group = DispatchGroup()
        queue.async(group: group) {}
        return group.wait(timeout: .now() + max(0, seconds)) == .success
    }
}

/// A `SpeechRecognizer` for engines that decode whole utterances (Whisper): voice activity detection
/// cuts the stream into utterances (`VoiceActivitySegmenter`), each is decoded once into a final
/// segment, and the open utterance is re-decoded now and then for interim text
/// (`PartialDecodeSchedule`).
///
/// At most one decode runs at a time. Finals wait in order and are never dropped; an interim decode
/// that comes due while a decode runs or a final waits is dropped. Results are returned by the
/// `accept(_:)` call after they complete; `finish()` waits for all finals. Word and segment times
/// are seconds from the start of the stream.
///
/// Live (`interims`), the final comes soon after the end of speech (endpointing look-ahead):
/// - once the silence after an utterance's last speech covers its end padding, all of the audio its final
///   will hold is there (`VoiceActivitySegmenter.pendingCut`), so its final decode starts then, while
///   the segmenter still waits for the end-of-speech silence; when the utterance is cut as expected, that
///   decode is its final. Its words are shown as interim text meanwhile. If speech resumes, the decode
///   goes on as an interim one; if the utterance's expected end moves, it is cancelled.
/// - an interim decode in flight is cancelled when its utterance is cut or its final decode can start,
///   so a final never waits for an interim.
/// - local agreement (`LocalAgreement`): when two consecutive decodes of the open utterance agree on
///   words from its start that end a sentence, and the newer one has words after them, those words
///   become a final at once, with their times, and the utterance is split there
///   (`VoiceActivitySegmenter.split(from:to:)`); the rest goes on as the open utterance. Fluent
///   speakers rarely pause long enough to end an utterance, so this is what keeps their finals close.
///   A long sentence is split the same way at an agreed clause end, or between agreed words once it
///   runs on (`LocalAgreement.splitCount(previous:current:)`), so its first words need not wait for its end.
///   The rest of a sentence split at a clause or between words is decoded for its final with up to
///   2.5 s of the audio before the split (`SentenceLead`), its words before the cut dropped, so it is
///   read in its sentence and not as a fragment.
/// - speech just before an utterance that the detector did not hear (quiet speech at the very start of
///   a recording) is decoded with it: its final starts back there (`MissedSpeechLead`) and keeps those words.
///
/// Files (no `interims`): cut utterances wait in a pack and are decoded together over one stretch
/// of the stream (`UtterancePacking`), each getting its final segment from the words nearest to it.
///
/// Final and look-ahead decodes get the utterance raised to an ordinary level
/// (`SpeechLevelNormalizer.decodeGain`: its loudest window to 0.1 RMS, 6 to 30 dB up, else as it is);
/// the language identification hears its speech raised the same way (so that it identifies what the
/// decodes will hear); interim decodes get the samples as they are.
///
/// Every decode's words (final, look-ahead and interim) lose those stamped past the end of the
/// audio decoded (`DecodedWords.withinAudio`) and pass `RepetitionGuard`, which cuts a phrase
/// repeated far beyond the audio.
/// Interim decodes are capped at a few tokens per second of audio (`PartialDecodeSchedule`); final
/// and look-ahead decodes get a generous cap, and the decoder may retry them (temperature fallback).
///
/// Where one segment starts at the cut that ended the one before (a split, a forced cut), words of
/// the new segment that repeat the end of the previous one at the cut are dropped (`CutOverlap`).
/// A cancelled decode stops as soon as the engine can (`DecodeCancellation`) and its result is dropped.
///
/// Work cut short: `finish(stopRequested:abandoning:)` cancels the decode in flight, drops the utterances waiting
/// and says from which sample the audio has no transcript; releasing the recognizer cancels and joins
/// its decodes too, so no decode outlives it (the engine's C state may be freed right after).
/// `untranscribedSamples` is the audio not transcribed yet (the open utterance, the ones waiting, the
/// one being decoded): a reader that keeps it bounded keeps memory flat (`PendingTranscription`).
///
/// The language follows `LanguageLock`: once `LanguageLock.identificationSeconds` of speech have been
/// heard (or the stream ends with less), one job identifies their language
/// (`UtteranceDecoder.identifyLanguage`), or, when an utterance has waited for it
/// `LanguageLock.longestWaitSeconds`, what has been heard by then. Under "auto" nothing is decoded before that, and the
/// language found is locked for every decode; a named language is decoded from the start, and one
/// warning line (`languageWarning`) says when the speech confidently contradicts it. `language` is
/// the recording's language as it stands.
public final class UtteranceRecognizer: SpeechRecognizer {
    /// The recording's language (`LanguageLock.storedLanguage`): the named tag, or under "auto" the
    /// detected one once the first decode has identified it (the fallback until then).
    public var language: String { languageState.lock.withLock { $0.storedLanguage } }
    public let inputFormat: RecognizerInputFormat
    public let delivery = RecognitionDelivery.utterances

    private let detector: any VoiceActivityDetector
    private let decoder: any UtteranceDecoder
    private let worker: any DecodeWorker
    private let clock: any WallClock
    private var segmenter: VoiceActivitySegmenter
    private var schedule: PartialDecodeSchedule
    /// Live or files, each with the state only it keeps; chosen by `interims` at `init` and never changed.
    private let mode: Mode

    /// Samples of the stream from `bufferStart` on, enough to cut any utterance still to come.
    private var buffer: [Float] = []
    private var bufferStart = 0
    /// Samples not yet a whole VAD window.
    private var unwindowed: [Float] = []
    /// Decodes of cut utterances waiting to run, oldest first: live, one utterance each; files, a pack each.
    private var waitingFinals: [WaitingFinal] = []
    /// The decode in flight that is still wanted; cancelled ones are in `abandoned` until they return.
    private var current: Job?
    private var abandoned: Set<Int> = []
    private var jobCount = 0
    private let mailbox = Mailbox()
    /// The last final's words and the sample its utterance ended at, for `CutOverlap`.
    private var lastFinal: (endSample: Int, words: [WordTiming])?
    /// The language rule, shared with decode jobs: the first job settles it on the worker's thread,
    /// so the jobs after it use the locked language.
    private let languageState: LanguageState
    private let languageWarning: (String) -> Void
    /// One sentence per invented phrase a final's decode dropped (`InventedPhrases.note`), in order.
    public private(set) var notes: [String] = []
    /// How far the language identification has got on this thread (`LanguageLock` settles it on the worker's).
    private var identification = Identification.listening

    /// - Parameters:
    ///   - language: a BCP 47 tag, or "auto" to detect it (`LanguageChoice`).
    ///   - fallbackLanguage: kept under "auto" when no speech is identified (`LanguageLock.fallback`).
    ///   - recentLanguage: the library's recent language, for a recording too short to identify (`LanguageLock.recent`).
    ///   - languageWarning: told, on the caller's thread, the one warning line when the speech
    ///     contradicts a named language.
    ///   - interims: live use: re-decode the open utterance for interim text, and start each final
    ///     decode as soon as its audio is complete; off for files.
    ///   - clock: paces interim decodes (wall time).
    ///   - packing: without interims (files), how utterances are decoded together; unused live.
    public init(
        language: String, sampleRate: Int, detector: any VoiceActivityDetector, decoder: any UtteranceDecoder,
        worker: any DecodeWorker, clock: any WallClock = SystemClock(), interims: Bool,
        settings: VoiceActivitySettings = VoiceActivitySettings(), schedule: PartialDecodeSchedule = PartialDecodeSchedule(),
        packing: UtterancePacking = UtterancePacking(),
        fallbackLanguage: String = "en-US", recentLanguage: String? = nil, languageWarning: @escaping (String) -> Void = { _ in }
    ) {
        var lock = LanguageLock(choice: LanguageChoice(language), fallback: fallbackLanguage, recent: recentLanguage)
        if !decoder.identifiesLanguages { _ = lock.identified(nil) }  // nothing to identify with: settled at once
        self.languageState = LanguageState(lock)
        self.languageWarning = languageWarning
        self.detector = detector
        self.decoder = decoder
        self.worker = worker
        self.clock = clock
        self.mode = interims ? .live(LiveState()) : .packed(PackState(packing: packing))
        self.schedule = schedule
        self.segmenter = VoiceActivitySegmenter(windowSamples: detector.windowSamples, sampleRate: sampleRate, settings: settings)
        self.inputFormat = RecognizerInputFormat(sampleRate: sampleRate, encoding: .float32, blockSamples: detector.windowSamples * 4)
    }

    /// True while a decode runs or waits to run, cancelled ones included (for tests and the benchmark).
    public var decodeInFlight: Bool { mailbox.inFlight }

    /// Decodes of the open utterance started so far, interim and look-ahead ones, cancelled ones
    /// included (for tests and the benchmark): none without `interims`.
    public private(set) var openUtteranceDecodes = 0

    /// Cancels the decode in flight and waits for it (and any cancelled one) to return.
    deinit {
        current?.cancellation.cancel()
        worker.drain()
    }

    /// The first sample, from the stream's start, whose transcript is not done: the start of the
    /// oldest utterance waiting for or in its final decode, or of the open utterance; else every
    /// sample the voice activity detector has seen.
    private var transcribedFrontier: Int {
        var frontier = segmenter.sampleCount
        if let open = segmenter.openStartSample { frontier = min(frontier, open) }
        if let pack = packs?.pack { frontier = min(frontier, pack.stretchStart) }
        if let waiting = waitingFinals.first { frontier = min(frontier, waiting.startSample) }
        // Its own words' start, not where its decode starts: a sentence lead's audio is final already.
        if let job = current, job.purpose == .final { frontier = min(frontier, job.utteranceStart) }
        return frontier
    }

    public var untranscribedSamples: Int { max(0, bufferStart + buffer.count - transcribedFrontier) }

    public func awaitEvents(upToSeconds seconds: Double) throws -> [RecognitionEvent] {
        if mailbox.inFlight { _ = worker.drain(upToSeconds: seconds) }
        return try schedule(finishing: false)
    }

    public func accept(_ samples: RecognizerSamples) throws -> [RecognitionEvent] {
        let floats = samples.floats
        buffer += floats
        unwindowed += floats
        let whole = unwindowed.count / detector.windowSamples * detector.windowSamples
        if whole > 0 {
            let probabilities = try detector.speechProbabilities(Array(unwindowed[..<whole]))
            unwindowed.removeFirst(whole)
            for probability in probabilities {
                for cut in segmenter.add(probability: probability) { try queueFinal(cut) }
            }
        }
        trimBuffer()
        return try schedule(finishing: false)
    }

    public func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding {
        if !unwindowed.isEmpty {
            let padded = unwindowed + [Float](repeating: 0, count: detector.windowSamples - unwindowed.count)
            for probability in try detector.speechProbabilities(padded) {
                for cut in segmenter.add(probability: probability) { try queueFinal(cut) }
            }
            unwindowed = []
        }
        for cut in segmenter.finish() { try queueFinal(cut) }
        while true {
            let events = try schedule(finishing: true)
            if !events.isEmpty { delivering(events) }
            guard current != nil || !waitingFinals.isEmpty || packs?.pack != nil else { break }
            if abandoning() {
                let from = transcribedFrontier
                abandonPending()
                return RecognitionEnding(events: [], untranscribedFromSeconds: Double(from) / Double(inputFormat.sampleRate))
            }
            _ = worker.drain(upToSeconds: 0.1)
        }
        worker.drain()  // cancelled interim decodes still running return before the stream ends
        return RecognitionEnding(events: [])
    }

    public func cancel() {
        abandonPending()
    }

    /// Cancels the decode in flight, drops the utterances waiting, and joins the worker: when this
    /// returns, no decode of this recognizer runs.
    private func abandonPending() {
        current?.cancellation.cancel()
        current = nil
        waitingFinals = []
        packs?.pack = nil
        live?.held = nil
        worker.drain()
        _ = mailbox.take()
        abandoned = []
    }

    /// Takes an utterance cut: its look-ahead decode becomes its final when it decoded the same audio;
    /// otherwise it waits for its decode, in a file's pack (`UtterancePacking`) or alone.
    private func queueFinal(_ cut: UtteranceCut) throws {
        if needsIdentification { hear(cut) }
        switch mode {
        case .live(let live):
            live.utteranceNumber += 1
            schedule.utteranceEnded()
            live.hypothesis = nil
            defer { live.held = nil }
            if let held = live.held, held.job.purpose == .lookAhead(cut) {
                live.ready += try finalEvents(job: held.job, words: held.words, review: held.review, dropped: held.dropped)
            } else if let current, current.purpose == .lookAhead(cut) {
                current.purpose = .final
                current.cuts = [cut]
            } else {
                let start = decodeStart(of: cut, live: live)
                waitingFinals.append(WaitingFinal(cuts: [cut], startSample: start, samples: samples(from: start, to: cut.endSample),
                                                  keepsLead: keepsLead(of: cut, live: live)))
            }
            if live.sentenceLead?.cutSample == cut.startSample { live.sentenceLead = nil }
            live.lastUtteranceEnd = max(live.lastUtteranceEnd, cut.endSample)
        case .packed(let packs):
            schedule.utteranceEnded()
            let start = packs.pack?.stretchStart
                ?? packs.packing.stretchStart(firstStart: cut.startSample, previousEnd: packs.stretchEnd, sampleRate: inputFormat.sampleRate)
            packs.pack = Pack(stretchStart: start, cuts: (packs.pack?.cuts ?? []) + [cut])
        }
    }

    /// Keeps the speech of `cut` for the language identification still to come (at most 30 s of it),
    /// and the stream sample at which the first utterance was cut.
    private func hear(_ cut: UtteranceCut) {
        switch identification {
        case .listening:
            identification = .heard(speech: samples(of: cut), firstCutSample: segmenter.sampleCount)
        case .heard(var speech, let firstCutSample):
            guard speech.count < maxIdentificationSamples else { return }
            identification = .listening  // `speech` is the only reference: appended in place
            speech += samples(of: cut)
            identification = .heard(speech: speech, firstCutSample: firstCutSample)
        case .pending, .started:
            break  // the speech to identify is taken already
        }
    }

    /// Live: the first sample a final (or look-ahead) decode of `cut` hears: the start of the sentence
    /// it finishes when its first words were split off before it (`LiveState.sentenceLead`); else
    /// earlier than its own start when the audio just before `cut` is as loud as its speech
    /// (`MissedSpeechLead`), back to the previous utterance's end at most. Samples from the stream's start.
    private func decodeStart(of cut: UtteranceCut, live: LiveState) -> Int {
        if let lead = live.sentenceLead, lead.cutSample == cut.startSample { return lead.startSample }
        let earliest = max(bufferStart, live.lastUtteranceEnd,
                           cut.startSample - Int(MissedSpeechLead.longestSeconds * Double(inputFormat.sampleRate)))
        guard earliest < cut.startSample else { return cut.startSample }
        let before = samples(from: earliest, to: cut.startSample)
        let lead = MissedSpeechLead.samples(before: before[...], utterance: samples(of: cut)[...],
                                            windowSamples: detector.windowSamples, sampleRate: inputFormat.sampleRate)
        return cut.startSample - lead
    }

    /// Live: true when a decode of `cut` from `decodeStart(of:live:)` keeps its words before the cut: missed
    /// speech (`MissedSpeechLead`), which no final holds; false after a sentence lead, whose audio is final already.
    private func keepsLead(of cut: UtteranceCut, live: LiveState) -> Bool {
        !(live.sentenceLead.map { $0.cutSample == cut.startSample } ?? false)
    }

    /// Files: the pack goes to the decodes waiting once it is due (`UtterancePacking.isDue`) or the stream ends.
    private func queuePack(finishing: Bool) {
        guard let packs, let pack = packs.pack, let last = pack.cuts.last,
              finishing || packs.packing.isDue(stretchStart: pack.stretchStart, streamSamples: segmenter.sampleCount,
                                               sampleRate: inputFormat.sampleRate)
        else { return }
        waitingFinals.append(WaitingFinal(cuts: pack.cuts, startSample: pack.stretchStart,
                                          samples: samples(from: pack.stretchStart, to: last.endSample), keepsLead: false))
        packs.stretchEnd = last.endSample
        packs.pack = nil
    }

    /// The samples of `cut` still in the buffer.
    private func samples(of cut: UtteranceCut) -> [Float] {
        samples(from: cut.startSample, to: cut.endSample)
    }

    /// The samples from `start` up to `end` (from the stream's start) still in the buffer.
    private func samples(from start: Int, to end: Int) -> [Float] {
        let from = max(start, bufferStart) - bufferStart
        let to = min(end - bufferStart, buffer.count)
        return from < to ? Array(buffer[from..<to]) : []
    }

    /// Keeps only what an utterance still to be cut can need: from the open utterance's start, or the
    /// padding before now; for a file, also its pack's stretch and the lead a stretch may start with.
    private func trimBuffer() {
        let padding = Int(segmenter.settings.paddingSeconds * Double(inputFormat.sampleRate)) + detector.windowSamples
        var keepFrom = segmenter.openStartSample ?? max(0, segmenter.sampleCount - padding)
        switch mode {
        case .live(let live):
            // A final may hear up to `MissedSpeechLead.longestSeconds` before its utterance.
            keepFrom -= Int(MissedSpeechLead.longestSeconds * Double(inputFormat.sampleRate))
            if let lead = live.sentenceLead { keepFrom = min(keepFrom, lead.startSample) }
        case .packed(let packs):
            keepFrom = packs.pack?.stretchStart
                ?? packs.packing.stretchStart(firstStart: keepFrom, previousEnd: packs.stretchEnd, sampleRate: inputFormat.sampleRate)
        }
        let drop = min(buffer.count, keepFrom - bufferStart)
        if drop > inputFormat.sampleRate {  // trim in steps of at least a second, not every block
            buffer.removeFirst(drop)
            bufferStart += drop
        }
    }

    /// Whether the decode in flight is no longer worth finishing: its utterance was cut (an interim),
    /// a final waits, or the open utterance's final decode can start (an interim) or must start over
    /// because its expected end moved (a look-ahead).
    private func isObsolete(_ job: Job) -> Bool {
        // Interim and look-ahead decodes are live only.
        guard job.purpose != .final, job.purpose != .identify, let live else { return false }
        if !waitingFinals.isEmpty || job.utterance != live.utteranceNumber { return true }
        guard let pending = segmenter.pendingCut else { return false }
        return job.purpose != .lookAhead(pending)
    }

    /// Collects finished decodes, cancels one no longer wanted, and starts the next: a waiting final
    /// first, else the open utterance's look-ahead final when its audio is complete, else an interim when due.
    private func schedule(finishing: Bool) throws -> [RecognitionEvent] {
        var events = try collect()
        queuePack(finishing: finishing)
        while true {
            if needsIdentification, let speech = identificationSpeech(finishing: finishing) {
                identification = .pending(speech)
            }
            if let job = current {
                guard isObsolete(job) else { break }
                job.cancellation.cancel()
                abandoned.insert(job.id)
                current = nil
            }
            if case .pending(let pending) = identification {
                identification = .started
                start(.identify, samples: pending.speech, offset: 0, wholeRecording: pending.wholeRecording, early: pending.early)
            } else if holdsDecodes {
                break  // "auto": nothing is decoded before the language is known
            } else if !waitingFinals.isEmpty {
                let next = waitingFinals.removeFirst()
                start(.final, samples: next.samples, offset: next.startSample, cuts: next.cuts, keepsLead: next.keepsLead)
            } else if let live, !finishing, let cut = segmenter.pendingCut {
                if let held = live.held, held.job.purpose == .lookAhead(cut) { break }  // already decoded: waiting for the cut
                schedule.interimStarted(at: clock.now())
                let from = decodeStart(of: cut, live: live)
                start(.lookAhead(cut), samples: samples(from: from, to: cut.endSample), offset: from, cuts: [cut],
                      keepsLead: keepsLead(of: cut, live: live))
            } else if live != nil, !finishing, let open = segmenter.openStartSample {
                let openSeconds = Double(bufferStart + buffer.count - open) / Double(inputFormat.sampleRate)
                let now = clock.now()
                guard schedule.shouldStartInterim(now: now, utteranceSeconds: openSeconds, decodeInFlight: false, finalsWaiting: false)
                else { break }
                schedule.interimStarted(at: now)
                start(.interim, samples: Array(buffer[(open - bufferStart)...]), offset: open)
            } else {
                break
            }
            events += try collect()  // an inline worker has already run it
        }
        return events
    }

    private var needsIdentification: Bool { languageState.lock.withLock { $0.needsIdentification } }

    /// True under "auto" until the language is identified: decodes wait for it.
    private var holdsDecodes: Bool { languageState.lock.withLock { $0.choice == .automatic && $0.needsIdentification } }

    private var maxIdentificationSamples: Int { 30 * inputFormat.sampleRate }

    /// The speech to identify the language of: the cut utterances' and the open one's so far, once
    /// they reach `LanguageLock.identificationSeconds` (any amount when `finishing`: then the whole
    /// recording's speech, when under 30 s); nil before, and once the speech is taken
    /// (`Identification.pending`, `.started`).
    ///
    /// An utterance cut before there is that much speech waits for the identification at most
    /// `LanguageLock.longestWaitSeconds` of stream time: then what has been heard is identified
    /// (`early`). A short "Yes." followed by silence gets its final, and a file whose first speech is
    /// short and far from the next is read on (the reader waits for transcription that far behind:
    /// it used to wait forever).
    private func identificationSpeech(finishing: Bool) -> IdentificationSpeech? {
        var speech: [Float]
        let firstCutSample: Int?
        switch identification {
        case .listening: (speech, firstCutSample) = ([], nil)
        case .heard(let heard, let first): (speech, firstCutSample) = (heard, first)
        case .pending, .started: return nil
        }
        if let open = segmenter.openStartSample, open >= bufferStart { speech += buffer[(open - bufferStart)...] }
        let rate = Double(inputFormat.sampleRate)
        let enough = Double(speech.count) >= LanguageLock.identificationSeconds * rate
        let waitedLong = firstCutSample.map { Double(segmenter.sampleCount - $0) >= LanguageLock.longestWaitSeconds * rate } ?? false
        guard !speech.isEmpty, finishing || enough || waitedLong else { return nil }
        let whole = finishing && speech.count <= maxIdentificationSamples
        return IdentificationSpeech(speech: Array(speech.prefix(maxIdentificationSamples)), wholeRecording: whole, early: !whole && !enough)
    }

    /// - Parameter wholeRecording: an identification of all the recording's speech (`LanguageLock`'s short-clip rule).
    /// - Parameter early: an identification of less speech than `LanguageLock.identificationSeconds`, because an
    ///   utterance waited for it long enough (`LanguageLock.identified(_:recordingSpeechSeconds:earlySpeechSeconds:)`).
    private func start(_ purpose: Purpose, samples: [Float], offset: Int, cuts: [UtteranceCut] = [], wholeRecording: Bool = false,
                       early: Bool = false, keepsLead: Bool = false) {
        jobCount += 1
        let seconds = Double(samples.count) / Double(inputFormat.sampleRate)
        let offsetSeconds = Double(offset) / Double(inputFormat.sampleRate)
        let job = Job(id: jobCount, purpose: purpose, utterance: live?.utteranceNumber ?? 0, offsetSample: offset,
                      offsetSeconds: offsetSeconds, endSeconds: offsetSeconds + seconds)
        job.cuts = cuts
        job.keepsLead = keepsLead
        // Missed speech before the utterance (`MissedSpeechLead`): the decode would start inside
        // speech, so it hears a little silence first, as a cut's own padding gives it.
        let silence = keepsLead && (cuts.first.map { offset < $0.startSample } ?? false)
            ? Int(MissedSpeechLead.silenceBeforeSeconds * Double(inputFormat.sampleRate)) : 0
        job.leadingSilenceSeconds = Double(silence) / Double(inputFormat.sampleRate)
        // Live, a final or look-ahead decode may start before its utterance, at its sentence's lead.
        if live != nil, let first = cuts.first { job.utteranceStart = first.startSample }
        current = job
        switch purpose {
        case .interim, .lookAhead: openUtteranceDecodes += 1
        case .final, .identify: break
        }
        let interim = purpose == .interim
        let maxTokens = schedule.tokenLimit(audioSeconds: seconds, interim: interim)
        let (id, cancellation, decoder, mailbox, languages) = (job.id, job.cancellation, self.decoder, self.mailbox, languageState)
        let purpose = job.purpose
        let window = detector.windowSamples
        let pieces = UtterancePacking.pieces(of: cuts, from: offset, count: samples.count)
        let packed = purpose == .final && (packs?.packing.spanSeconds ?? 0) > 0
        // Under "auto", a decode that makes finals (a file's pack, a live final or the look-ahead that may
        // become one) in doubt about its language has each utterance's checked (`SegmentLanguages`):
        // live lines in another language are decoded in it, not translated into the locked one.
        let makesFinals: Bool
        switch purpose {
        case .final, .lookAhead: makesFinals = true
        case .interim, .identify: makesFinals = false
        }
        let perUtterance = makesFinals && decoder.identifiesLanguages && languageState.lock.withLock { $0.choice == .automatic }
        let rate = inputFormat.sampleRate
        mailbox.begin()
        worker.submit {
            var warning: String?
            var review: LanguageReview?
            var dropped: [DroppedPhrase] = []
            let outcome: Result<[WordTiming], any Error> = Result {
                if purpose == .identify {
                    // The speech as the decodes will hear it: quiet speech heard as it is was misread
                    // (whispered English 30 dB down: French at 55%, then decoded to nothing).
                    let guess = try decoder.identifyLanguage(SpeechLevelNormalizer.leveledForDecoding(samples, windowSamples: window))
                    let speechSeconds = Double(samples.count) / Double(rate)
                    warning = languages.lock.withLock {
                        $0.identified(guess, recordingSpeechSeconds: wholeRecording ? speechSeconds : nil,
                                      earlySpeechSeconds: early ? speechSeconds : nil)
                    }
                    return []
                }
                let locked = languages.lock.withLock { $0.language(after: nil) }
                decoder.useLanguage(locked)
                // A final (or look-ahead) decode hears quiet speech at an ordinary level; a file's pack,
                // its quiet utterances at the level of its loudest; interims as they are.
                let audio = interim ? samples
                    : packed ? UtterancePacking.leveled(samples, pieces: pieces, windowSamples: window)
                    : [Float](repeating: 0, count: silence)
                        + pieces.flatMap { SpeechLevelNormalizer.leveledForDecoding(Array(samples[$0]), windowSamples: window) }
                let words = try decoder.decode(audio, maxTokens: maxTokens, interim: interim, cancellation: cancellation)
                if !interim { dropped = decoder.droppedPhrasesOfLastDecode() }  // a final's decode, or a look-ahead's that may become one
                if perUtterance, SegmentLanguages.isInDoubt(try decoder.languageOfLastDecode(), locked: locked) {
                    defer { decoder.useLanguage(locked) }
                    review = try LanguageReview(audio, cuts: cuts, offset: offset, locked: locked, sampleRate: rate, windowSamples: window,
                                                decoder: decoder, maxTokens: maxTokens, cancellation: cancellation)
                }
                return words
            }
            mailbox.complete(Completed(id: id, words: outcome, languageWarning: warning, review: review, dropped: dropped))
        }
    }

    private func collect() throws -> [RecognitionEvent] {
        var events = live?.ready ?? []
        live?.ready = []
        for done in mailbox.take() {
            if let warning = done.languageWarning { languageWarning(warning) }  // from a cancelled decode too
            if abandoned.remove(done.id) != nil { continue }
            guard let job = current, job.id == done.id else { continue }
            current = nil
            switch job.purpose {
            case .identify:
                _ = try done.words.get()  // a failed identification fails the recognizer, as a failed decode does
            case .final:
                events += try finalEvents(job: job, words: done.words, review: done.review, dropped: done.dropped)
            case .interim, .lookAhead:
                // An interim for an utterance that has since been cut would show stale text after its final.
                guard let live, job.utterance == live.utteranceNumber else { continue }
                let words = decodedWords(job: job, words: try done.words.get(), final: false)
                if let split = try agreedSplit(job: job, words: words, live: live) {
                    events += split
                    continue
                }
                live.hypothesis = (job.utteranceStart, words)
                if !words.isEmpty { events.append(.interim(words.map(\.word).joined(separator: " "))) }
                if case .lookAhead = job.purpose {
                    live.held = HeldLookAhead(job: job, words: done.words, review: done.review, dropped: done.dropped)
                }
            }
        }
        return events
    }

    /// The local-agreement rule: when `words` (a decode of the open utterance, stream times) and the
    /// decode before it agree on words that more words follow and that may end a final
    /// (`LocalAgreement.splitCount`), splits the utterance after them and returns their final and the
    /// rest as interim text; nil otherwise.
    private func agreedSplit(job: Job, words: [WordTiming], live: LiveState) throws -> [RecognitionEvent]? {
        guard let previous = live.hypothesis, previous.startSample == job.utteranceStart,
              job.utteranceStart == segmenter.openStartSample,
              let count = LocalAgreement.splitCount(previous: previous.words, current: words)
        else { return nil }
        let rate = Double(inputFormat.sampleRate)
        let phraseEnd = Int((words[count - 1].endSeconds * rate).rounded())
        let nextStart = Int((words[count].startSeconds * rate).rounded())
        guard let cut = segmenter.split(from: phraseEnd, to: nextStart) else { return nil }
        live.lastUtteranceEnd = max(live.lastUtteranceEnd, cut.endSample)
        live.utteranceNumber += 1
        schedule.utteranceEnded()
        live.held = nil
        let cutSeconds = Double(cut.endSample) / rate
        let sentence = words.prefix(count).map {
            WordTiming(word: $0.word, startSeconds: min($0.startSeconds, cutSeconds), endSeconds: min($0.endSeconds, cutSeconds))
        }
        let rest = Array(words.dropFirst(count))
        live.hypothesis = (cut.endSample, rest)
        live.sentenceLead = SentenceLead.lead(splitting: words[count - 1].word, utteranceStart: job.utteranceStart,
                                              cut: cut.endSample, previous: live.sentenceLead, sampleRate: inputFormat.sampleRate)
        var events = segmentEvents(sentence, cut: cut)
        events.append(.interim(rest.map(\.word).joined(separator: " ")))
        return events
    }

    /// The final segments of a decoded utterance (or a file's pack of them, its words shared out by
    /// `UtterancePacking.assigned`), with times from the start of the stream, without loops
    /// (`RepetitionGuard`) or words that repeat the previous final at a cut they share; none for no words.
    /// A pack whose languages were reviewed (`LanguageReview`) has its utterances as the review cut
    /// them; those of its runs take their words from their run's own decode, and keep its language.
    /// `dropped`: what the decode dropped as invented phrases, noted (`notes`) once its final is made.
    private func finalEvents(job: Job, words: Result<[WordTiming], any Error>, review: LanguageReview? = nil,
                             dropped: [DroppedPhrase]) throws -> [RecognitionEvent] {
        let words = decodedWords(job: job, words: try words.get())
        notes += dropped.map { InventedPhrases.note($0.text, startSeconds: job.offsetSeconds + $0.startSeconds) }
        let cuts = review?.cuts ?? job.cuts
        var shares = UtterancePacking.assigned(words, to: cuts, sampleRate: inputFormat.sampleRate)
        var languages = [String?](repeating: nil, count: cuts.count)
        for run in review?.runs ?? [] {
            let runShares = UtterancePacking.assigned(decodedWords(job: job, words: run.words), to: Array(cuts[run.utterances]),
                                                      sampleRate: inputFormat.sampleRate)
            for (index, share) in zip(run.utterances, runShares) {
                shares[index] = share
                languages[index] = run.language
            }
        }
        return cuts.indices.flatMap { segmentEvents(shares[$0], cut: cuts[$0], language: languages[$0]) }
    }

    /// A decode's words with stream times, without loops (`RepetitionGuard`), without the words of
    /// a sentence lead (`SentenceLead.after`; a final keeps those of a missed-speech lead,
    /// `MissedSpeechLead`, which interim text leaves out), and without words that repeat the
    /// previous final at a cut they share (`CutOverlap`).
    private func decodedWords(job: Job, words: [WordTiming], final: Bool = true) -> [WordTiming] {
        var words = RepetitionGuard.trimmed(job.placed(words))
        if job.utteranceStart > job.offsetSample, !(final && job.keepsLead) {
            words = SentenceLead.after(words, cutSeconds: Double(job.utteranceStart) / Double(inputFormat.sampleRate))
        }
        return withoutOverlap(words, startSample: job.utteranceStart)
    }

    /// The final segment of `words` (stream times, already trimmed), the decode of `cut`; none for no words.
    /// `language`: the segment's own when not the recording's (`TranscriptSegment.language`).
    private func segmentEvents(_ words: [WordTiming], cut: UtteranceCut, language: String? = nil) -> [RecognitionEvent] {
        guard let first = words.first, let last = words.last else { return [] }
        lastFinal = (cut.endSample, words)
        let text = words.map(\.word).joined(separator: " ")
        return [.final(TranscriptSegment(text: text, startSeconds: first.startSeconds,
                                         endSeconds: max(first.startSeconds, last.endSeconds), words: words, language: language))]
    }

    /// `words` (stream times) of audio from `startSample` on, without the leading words that repeat
    /// the last final when that final ended at `startSample` (`CutOverlap`): the same in interim text
    /// as in the final, so a word split off is not shown twice.
    private func withoutOverlap(_ words: [WordTiming], startSample: Int) -> [WordTiming] {
        guard let lastFinal, lastFinal.endSample == startSample else { return words }
        return CutOverlap.trimmed(previous: lastFinal.words, next: words,
                                  cutSeconds: Double(startSample) / Double(inputFormat.sampleRate))
    }

    /// The state only one way of use keeps: live (`interims`) or files. Each is a class, changed in
    /// place; the case never changes.
    private enum Mode {
        /// Live: interim and look-ahead decodes of the open utterance, each final decoded alone as
        /// soon as its audio is complete.
        case live(LiveState)
        /// Files: cut utterances decoded together over one stretch of the stream (`UtterancePacking`).
        case packed(PackState)
    }

    /// Live: the open utterance's decodes and what its next final needs; nil for files.
    private var live: LiveState? {
        switch mode {
        case .live(let state): state
        case .packed: nil
        }
    }

    /// Files: the pack being gathered; nil live.
    private var packs: PackState? {
        switch mode {
        case .live: nil
        case .packed(let state): state
        }
    }

    /// What live recognition keeps between decodes, on the recognizer's thread.
    private final class LiveState {
        /// Utterances cut or split off so far: an interim decode started for an earlier number is stale.
        var utteranceNumber = 0
        /// The words of the last decode of the open utterance (times in seconds from the stream's
        /// start) and the sample that decode started at: what the next decode is compared with
        /// (local agreement); nil before the open utterance's first decode.
        var hypothesis: (startSample: Int, words: [WordTiming])?
        /// A finished look-ahead decode of the open utterance, kept until the utterance is cut.
        var held: HeldLookAhead?
        /// Finals from held look-ahead decodes, returned by the next `accept(_:)` or `finish()`.
        var ready: [RecognitionEvent] = []
        /// Where the open utterance goes on with a sentence whose first words were split off before
        /// it at a clause end or between words (`LocalAgreement.splitCount`): the first sample of that
        /// sentence's audio (`startSample`) and the cut the open utterance starts at (`cutSample`).
        /// The open utterance's final decode hears the sentence from `startSample` (`SentenceLead`).
        var sentenceLead: SentenceLead?
        /// One past the last sample of the last utterance cut or split off (0 before any), from the
        /// stream's start: a final's missed-speech lead (`MissedSpeechLead`) never reaches before it.
        var lastUtteranceEnd = 0
    }

    /// What a file's recognition keeps between decodes, on the recognizer's thread.
    private final class PackState {
        /// How cut utterances are packed into one decode.
        let packing: UtterancePacking
        /// The utterances cut and not yet given a decode; nil when none is.
        var pack: Pack?
        /// One past the last sample of the last stretch given a decode (0 before any), from the stream's start.
        var stretchEnd = 0

        init(packing: UtterancePacking) { self.packing = packing }
    }

    /// Files: utterances cut and waiting to be decoded together.
    private struct Pack {
        /// The first sample of their stretch, from the stream's start (`UtterancePacking.stretchStart`).
        var stretchStart: Int
        /// In order, at least one.
        var cuts: [UtteranceCut]
    }

    /// A final decode waiting for the decoder.
    private struct WaitingFinal {
        /// The utterances it is of: live, one; files, a pack.
        var cuts: [UtteranceCut]
        /// The first sample decoded, from the stream's start.
        var startSample: Int
        /// The audio decoded (mono, the recognizer's rate), from `startSample`: the buffer moves on.
        var samples: [Float]
        /// Live: the words before the utterance are missed speech kept in its final (`Job.keepsLead`); false for a pack.
        var keepsLead: Bool
    }

    /// Live: a look-ahead decode that finished before its utterance was cut, with what its final needs.
    private struct HeldLookAhead {
        let job: Job
        let words: Result<[WordTiming], any Error>
        let review: LanguageReview?
        let dropped: [DroppedPhrase]
    }

    /// How far the identification of the recording's language (`LanguageLock`) has got. It matters
    /// only while `LanguageLock.needsIdentification`; the lock itself is settled by the identification's job.
    private enum Identification {
        /// No utterance cut yet.
        case listening
        /// Utterances were cut: their speech (mono, the recognizer's rate, at most 30 s, more taken
        /// only below that), and the stream sample count when the first of them was cut (under "auto"
        /// it waits for the identification, at most `LanguageLock.longestWaitSeconds`).
        case heard(speech: [Float], firstCutSample: Int)
        /// The speech to identify, taken when it first reaches `LanguageLock.identificationSeconds` and
        /// kept until the decoder is free: the same samples whether decodes run on the caller's thread
        /// or in the background (with a final decode in flight, the identification would otherwise
        /// hear as much more speech as the reader got ahead meanwhile).
        case pending(IdentificationSpeech)
        /// The identification job has started.
        case started
    }

    /// The speech one identification job hears.
    private struct IdentificationSpeech {
        /// Mono samples at the recognizer's rate, at most 30 s: the cut utterances' and the open one's.
        var speech: [Float]
        /// All the recording's speech (`LanguageLock`'s short-clip rule).
        var wholeRecording: Bool
        /// Less than `LanguageLock.identificationSeconds`, taken because an utterance waited long enough.
        var early: Bool
    }

    private enum Purpose: Equatable {
        /// The open utterance so far, for interim text.
        case interim
        /// The open utterance as it will be cut if no more speech comes.
        case lookAhead(UtteranceCut)
        /// A cut utterance.
        case final
        /// The first speech, for its language (`LanguageLock`).
        case identify
    }

    /// One submitted decode, seen only on the recognizer's thread.
    private final class Job {
        let id: Int
        var purpose: Purpose
        /// Live: `LiveState.utteranceNumber` when it started; 0 for files.
        let utterance: Int
        /// The first sample decoded, from the stream's start.
        let offsetSample: Int
        let offsetSeconds: Double
        let endSeconds: Double
        /// The utterances a final (or look-ahead) decode is of: one, or a file's pack.
        var cuts: [UtteranceCut] = []
        /// The first sample of the utterance's own words: `offsetSample`, or live, after a sentence
        /// lead (`SentenceLead`), the cut its utterance starts at.
        lazy var utteranceStart = offsetSample
        /// Live: the words before `utteranceStart` are missed speech (`MissedSpeechLead`), kept in
        /// the final; false for a sentence lead, whose words are final already.
        var keepsLead = false
        /// Seconds of silence the decode heard before `offsetSample` (`MissedSpeechLead.silenceBeforeSeconds`).
        var leadingSilenceSeconds = 0.0
        let cancellation = DecodeCancellation()

        init(id: Int, purpose: Purpose, utterance: Int, offsetSample: Int, offsetSeconds: Double, endSeconds: Double) {
            self.id = id
            self.purpose = purpose
            self.utterance = utterance
            self.offsetSample = offsetSample
            self.offsetSeconds = offsetSeconds
            self.endSeconds = endSeconds
        }

        /// The words of this decode within the audio decoded (`DecodedWords.withinAudio`: none stamped
        /// past its end), with times from the start of the stream.
        func placed(_ words: [WordTiming]) -> [WordTiming] {
            let shift = offsetSeconds - leadingSilenceSeconds
            return DecodedWords.withinAudio(words, audioSeconds: endSeconds - shift).map {
                WordTiming(word: $0.word, startSeconds: max(offsetSeconds, $0.startSeconds + shift),
                           endSeconds: max(offsetSeconds, $0.endSeconds + shift))
            }
        }
    }

    private struct Completed: Sendable {
        var id: Int
        var words: Result<[WordTiming], any Error>
        var languageWarning: String?
        /// Finals (a file's pack, a live final) whose utterances were checked for their own languages.
        var review: LanguageReview?
        /// Segments a final's decode dropped as invented phrases (`UtteranceDecoder.droppedPhrasesOfLastDecode`).
        var dropped: [DroppedPhrase]
    }

    /// A file's pack in doubt about its language (`SegmentLanguages.isInDoubt`), each utterance
    /// checked: runs on the worker's thread, between the pack's decode and its result.
    private struct LanguageReview: Sendable {
        /// The pack's utterances: its cuts, an utterance that changes language at a pause split
        /// there (`SegmentLanguages.changePoint`).
        var cuts: [UtteranceCut]
        /// The runs of `cuts` not in the locked language, each decoded again in its own.
        var runs: [LanguageRun]

        /// Identifies each of `cuts` of `SegmentLanguages.minimumSeconds` or more on its own audio (an
        /// unsure one of twice that, split at its first change point whose sides are two languages), and decodes each run of
        /// utterances not in `locked` in its own language.
        /// - Parameters:
        ///   - audio: the pack as its decode heard it, from stream sample `offset`.
        ///   - windowSamples: the voice activity detector's window, for `SegmentLanguages.changePoint`.
        ///   - cuts: the pack's utterances, stream samples.
        /// - Throws: what the decoder throws; `CancellationError` once `cancellation` is cancelled.
        init(_ audio: [Float], cuts: [UtteranceCut], offset: Int, locked: String, sampleRate: Int, windowSamples: Int,
             decoder: any UtteranceDecoder, maxTokens: Int, cancellation: DecodeCancellation) throws {
            let rate = Double(sampleRate)
            func identified(_ from: Int, _ to: Int) throws -> LanguageGuess? {
                if cancellation.isCancelled { throw CancellationError() }
                let range = max(0, from - offset)..<min(audio.count, max(0, to - offset))
                guard Double(range.count) >= SegmentLanguages.minimumSeconds * rate else { return nil }
                return try decoder.identifyLanguage(SpeechLevelNormalizer.leveledForDecoding(Array(audio[range]), windowSamples: windowSamples))
            }
            var reviewed: [UtteranceCut] = []
            var guesses: [LanguageGuess?] = []
            for cut in cuts {
                let guess = try identified(cut.startSample, cut.endSample)
                let unsure = (guess?.top?.probability ?? 1) < SegmentLanguages.switchProbability
                let own = max(0, cut.startSample - offset)..<min(audio.count, max(0, cut.endSample - offset))
                if unsure, let sides = try UtteranceRecognizer.languageChange(in: cut, own: own, audio: audio, locked: locked, sampleRate: sampleRate,
                                                               windowSamples: windowSamples, identified: identified) {
                    reviewed += sides.cuts
                    guesses += sides.guesses
                    continue
                }
                reviewed.append(cut)
                guesses.append(guess)
            }
            let pieces = UtterancePacking.pieces(of: reviewed, from: offset, count: audio.count)
            let languages = SegmentLanguages.utteranceLanguages(guesses, locked: locked)
            self.cuts = reviewed
            self.runs = try SegmentLanguages.foreignRuns(languages, locked: locked).map { run in
                if cancellation.isCancelled { throw CancellationError() }
                let stretch = pieces[run.utterances.lowerBound].lowerBound..<pieces[run.utterances.upperBound - 1].upperBound
                decoder.useLanguage(run.language)
                let start = Double(stretch.lowerBound) / rate
                let words = try decoder.decode(Array(audio[stretch]), maxTokens: maxTokens, interim: false, cancellation: cancellation)
                return LanguageRun(utterances: run.utterances, language: run.language, words: words.map {
                    WordTiming(word: $0.word, startSeconds: $0.startSeconds + start, endSeconds: $0.endSeconds + start)
                })
            }
        }
    }

    /// `cut` split in two at the one of its change points (`SegmentLanguages.changePoints`) whose
    /// sides differ most clearly in language (`SegmentLanguages.sideLanguages`); nil when at none
    /// do. Each side's language is returned as a certain guess.
    /// - Parameter own: the cut's samples, as a range of `audio`.
    private static func languageChange(in cut: UtteranceCut, own: Range<Int>, audio: [Float], locked: String, sampleRate: Int,
                                       windowSamples: Int, identified: (Int, Int) throws -> LanguageGuess?) throws
        -> (cuts: [UtteranceCut], guesses: [LanguageGuess?])? {
        var best: (split: Int, languages: [String], confidence: Double)?
        for change in SegmentLanguages.changePoints(audio[own], sampleRate: sampleRate, windowSamples: windowSamples) {
            let split = cut.startSample + change
            let sides = (try identified(cut.startSample, split), try identified(split, cut.endSample))
            guard let found = SegmentLanguages.sideLanguages(sides.0, sides.1, locked: locked),
                  found.confidence > (best?.confidence ?? 0) else { continue }
            best = (split, [found.first, found.second], found.confidence)
        }
        guard let best else { return nil }
        return ([UtteranceCut(startSample: cut.startSample, endSample: best.split, forced: false),
                 UtteranceCut(startSample: best.split, endSample: cut.endSample, forced: cut.forced)],
                best.languages.map { LanguageGuess(probabilities: [$0: 1]) })
    }

    /// Utterances of a file's pack decoded again, together, in a language not the locked one
    /// (`SegmentLanguages.foreignRuns`).
    private struct LanguageRun: Sendable {
        /// Indices into the reviewed pack's cuts.
        var utterances: Range<Int>
        /// A primary language subtag ("de").
        var language: String
        /// Their words, with times in seconds from the pack's first sample.
        var words: [WordTiming]
    }

    /// The recording's `LanguageLock`, read and settled from both threads.
    private final class LanguageState: Sendable {
        let lock: Mutex<LanguageLock>
        init(_ lock: LanguageLock) { self.lock = Mutex(lock) }
    }

    /// Finished decodes, handed from the worker's thread to the caller's.
    private final class Mailbox: Sendable {
        private struct State {
            var unfinished = 0
            var done: [Completed] = []
        }

        private let state = Mutex(State())

        var inFlight: Bool { state.withLock { $0.unfinished > 0 } }
        func begin() { state.withLock { $0.unfinished += 1 } }
        func complete(_ result: Completed) {
            state.withLock { state in
                state.done.append(result)
                state.unfinished -= 1
            }
        }
        func take() -> [Completed] {
            state.withLock { state in
                defer { state.done = [] }
                return state.done
            }
        }
    }
}
