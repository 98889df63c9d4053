import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberLinux
import Synchronization

/// `record` and `import` on Linux: wires the Linux adapters into the core `RecordingEngine`,
/// pulls the source block by block (paced for files), reads keys and stop signals, and draws.
///
/// One loop on the calling thread: every consumer sees events in order and nothing needs a
/// lock. Stop requests (q, Ctrl-C, SIGTERM) are checked between blocks, at least every 0.1 s, and
/// while waiting for transcription: a file is not read further while the recognizer is behind
/// (`RecordingEngine.transcriptionIsBehind`), and at the end the last decodes are waited for with
/// progress drawn. A stop leaves pending decodes the core's grace, then abandons them
/// (`PendingTranscription`): the recording keeps all the audio, `untranscribedAudio` says which
/// part has no transcript.
package final class Recorder {
    private let options: RecordingOptions
    private let context: CommandContext
    private let store: LibraryStore
    private let display: any RecordingDisplay
    private let signals: StopSignals?
    /// Counters of the last run, for `--stats`.
    private(set) var stats: RecordingStats?
    /// Why the activity feed file could not be written during the last run, if it could not.
    private(set) var feedFailure: String?
    /// Why the event stream file could not be written during the last run, if it could not.
    private(set) var eventsFailure: String?
    /// True when q stopped the last run.
    private var stoppedByKey = false
    /// Pause and resume requests from elsewhere than the keyboard (`serve`'s page).
    private let pauseRequests: PauseRequests?
    /// Also receives the recording's live lines, beside its `live/` folder (`serve`'s own Live view).
    private let liveFeed: (any LiveRecordingFeed)?
    /// The audio of the last run's saved recording that has no transcript, because a stop or a
    /// failure came before it was transcribed; nil when everything was transcribed.
    private(set) var untranscribedAudio: UntranscribedAudio?

    /// - Parameter signals: stop requests shared with the caller (`import` keeps one for all its
    ///   files); by default the recorder installs its own for the run.
    /// - Parameter pauseRequests: pauses and resumes asked for by another thread (the web page).
    /// - Parameter liveFeed: given every line written to the recording's `live/` folder, in the same
    ///   order and before the folder is made (the page's recorder feeds its server's Live view so);
    ///   an import, which has no such folder, gives it nothing.
    package init(options: RecordingOptions, context: CommandContext, store: LibraryStore,
         display: any RecordingDisplay, signals: StopSignals? = nil, pauseRequests: PauseRequests? = nil,
         liveFeed: (any LiveRecordingFeed)? = nil) {
        self.pauseRequests = pauseRequests
        self.liveFeed = liveFeed
        self.options = options
        self.context = context
        self.store = store
        self.display = display
        self.signals = signals
    }

    /// Records until the input ends or a stop is requested, then saves (or discards) the draft.
    /// - Returns: the saved recording and its transcript, or nil when discarded.
    /// - Throws: `LibraryError.readOnly` when the library cannot be changed, before the input is
    ///   opened or a model loaded; `AudioFileError` / `RecognizerError` before anything is
    ///   written; a failure in the middle saves what was recorded and then throws `RecordingInterrupted`.
    package func run() throws -> RecordingWithTranscript? {
        try store.checkCanBeChanged()
        let source = try options.input.open()
        let feed = try options.activityFeed.map { try FeedOutput(path: $0, stdout: context.stdout) }
        defer { feed?.close(); feedFailure = feed?.failure }
        let eventsOutput = try options.events.map { try FeedOutput(path: $0, stdout: context.stdout, label: "event stream") }
        defer { eventsOutput?.close(); eventsFailure = eventsOutput?.failure }
        var eventStream = RecordingEventStream()
        // A recording (not an import) can be followed from `serve`'s Live page: `live/<draft id>/`,
        // and `liveFeed` first, so it knows the draft's id before the folder can be seen.
        let live: [any LiveRecordingFeed] = options.importing == nil
            ? [liveFeed, LiveFolder(dataDirectory: context.dataDirectory)].compactMap { $0 } : []
        defer { for follower in live { follower.end() } }
        let activity = CountingActivityClient(wrapping: JSONLinesActivityClient { line in
            feed?.write(line)
            for follower in live { follower.activity(line) }
        })
        let timeZone = LibraryAccess.timeZone(context)
        let speechEngine = try options.speech.engine(in: context.environment, note: context.printError)
        let vocabulary = try options.speech.vocabulary(kind: speechEngine, environment: context.environment, library: store.directory,
                                                       note: context.printError)
        var settings = options.importing?.engineSettings(
            language: options.speech.language, tags: options.tags, fileFormat: options.format, timeZone: timeZone, vocabulary: vocabulary
        ) ?? RecordingEngineSettings(
            language: options.speech.language, name: options.name, tags: options.tags, location: options.location,
            fileFormat: options.format, timeZone: timeZone, keepIfInterrupted: !options.discard,  // --discard never survives a crash
            vocabulary: vocabulary)
        // A stop that discards the recording (an import) has no decode worth waiting for.
        if options.stopCancels { settings.pendingTranscription.stopGraceSeconds = 0 }
        // An import is a file: finals only, each utterance decoded once as `retranscribe` decodes it
        // (no interim decodes nobody sees); a recording is live, whatever its input.
        let services = LinuxRecordingServices.make(store: store, activity: activity, engine: speechEngine, model: options.speech.model,
                                                   mode: options.importing == nil ? .live : .fileInBackground,
                                                   vocabulary: vocabulary, recentLanguage: RecentLanguage.of((try? store.list()) ?? []),
                                                   languageWarning: { [context] in context.printError($0) })
        // The recording's clock: its audio time 0 is read from here on (the pacer's start), after the
        // model has loaded, so the event stream's `elapsed` minus a word's end is how late it is shown.
        let started = ContinuousClock.now
        let engine = RecordingEngine(sourceFormat: source.format, settings: settings, services: services) { [display] event in
            if eventsOutput != nil || !live.isEmpty {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if let line = eventStream.line(for: event, elapsedSeconds: seconds) {
                    eventsOutput?.write(line)
                    for follower in live { follower.event(line) }
                }
            }
            switch event {
            case .finalAdded(let segment): display.finalAdded(segment); display.transcriptChanged()
            case .interimChanged: display.transcriptChanged()
            case .phaseChanged, .audioReceived: break
            }
        }
        try engine.start()
        if let id = engine.recordingID { for follower in live { follower.open(id: id) } }
        let signals = self.signals ?? StopSignals()
        defer { if self.signals == nil { signals.cancel() } }
        // Keys work only with the live card on screen and stdin free (not the audio itself).
        let keys = display.isLive && !options.input.readsStandardInput ? Terminal.enableKeyInput() : nil
        defer { keys?.restore() }
        // At full speed the card's timer is progress: the audio transcribed, not the audio read.
        let unpaced = !options.input.isLive && options.speed.factor == nil
        let snapshot = {
            LiveViewSnapshot(engine: engine, source: source, acceptsKeys: keys != nil, timerCountsTranscribed: unpaced, discards: self.options.discard)
        }

        var sourceFailure: (any Error)?
        do { try pull(source, into: engine, keys: keys, signals: signals, started: started, snapshot: snapshot) } catch { sourceFailure = error }
        // The decodes still pending are waited for with progress drawn; a stop (now or while
        // waiting) gives them the core's grace, then abandons them.
        try engine.stop(stopRequested: { [display, self] in
            if keys?.keys(waiting: 0).contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") }) == true { stoppedByKey = true }
            display.render(snapshot(), force: false)
            return signals.stopRequested || stoppedByKey
        })
        untranscribedAudio = engine.untranscribedAudio
        display.finish(snapshot(), reachedEnd: !signals.stopRequested && !stoppedByKey && sourceFailure == nil)
        defer { stats = RecordingStats(interimResults: engine.interimResults, finalSegments: engine.transcript.finals.count,
                                       activity: activity.counts) }
        // A stop request cancels an import: half a file is not a recording.
        let cancelled = options.stopCancels && signals.stopRequested
        let failure = engine.captureFailure ?? sourceFailure
        switch try engine.finish(keep: !cancelled && !(options.discard && failure == nil)) {
        case .discarded where cancelled: throw RecordingInterrupted.cancelled
        case .discarded(.noAudio):
            // A stop (q, Ctrl-C, SIGTERM) before the first block is not an empty input.
            throw failure ?? (signals.stopRequested || stoppedByKey ? RecordingInterrupted.stoppedBeforeAudio : .noAudio)
        case .discarded(.requested): return nil
        case .saved(let recording, let segments):
            if let failure {
                throw RecordingInterrupted.failed(reason: LiveTranscriberCommandLine.describe(failure),
                                                  savedID: recording.id, seconds: recording.durationSeconds,
                                                  untranscribed: engine.untranscribedAudio)
            }
            return RecordingWithTranscript(recording: recording, segments: segments)
        }
    }

    /// Feeds the engine until the source ends, a stop is requested or q is pressed. Space or p
    /// toggles pause; a file waits while paused, live input is drained and dropped by the engine.
    private func pull(_ source: any AudioSource, into engine: RecordingEngine<LibraryStore>, keys: Terminal.KeyInput?,
                      signals: StopSignals, started: ContinuousClock.Instant, snapshot: () -> LiveViewSnapshot) throws {
        let blockFrames = max(1, source.format.sampleRate / 10)
        var pacer = PlaybackPacer(speed: options.input.isLive ? nil : options.speed.factor, sampleRate: source.format.sampleRate,
                              start: started)
        display.render(snapshot(), force: true)
        while !signals.stopRequested {
            let paused = engine.phase == .paused
            for key in keys?.keys(waiting: paused && !options.input.isLive ? 0.1 : 0) ?? [] {
                switch key {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"):
                    stoppedByKey = true
                    return
                case UInt8(ascii: " "), UInt8(ascii: "p"), UInt8(ascii: "P"):
                    try engine.togglePause()
                    pacer.paused(engine.phase == .paused, at: ContinuousClock.now)
                    display.render(snapshot(), force: true)
                default: break
                }
            }
            if let paused = pauseRequests?.take(), paused != (engine.phase == .paused) {
                try engine.togglePause()
                pacer.paused(engine.phase == .paused, at: ContinuousClock.now)
                display.render(snapshot(), force: true)
            }
            if engine.phase == .paused {
                if options.input.isLive { _ = try source.read(maxFrames: blockFrames) }  // drained; the engine drops it
                else if keys == nil { Terminal.sleep(seconds: 0.05) }  // paused from elsewhere: no key wait to block in
                engine.tick()
                continue
            }
            if let wait = pacer.wait(framesRecorded: engine.framesRecorded, now: ContinuousClock.now) {
                Terminal.sleep(seconds: min(wait, 0.1))  // short steps, so stops are never late
                continue
            }
            // A file waits for the recognizer to catch up (bounded memory, honest progress);
            // live input cannot wait.
            if !options.input.isLive, engine.transcriptionIsBehind {
                try engine.awaitTranscription(upToSeconds: 0.1)
                display.render(snapshot(), force: false)
                continue
            }
            guard let buffer = try source.read(maxFrames: blockFrames) else { return }
            try engine.receive(buffer)
            display.render(snapshot(), force: false)
        }
    }
}

/// Pause and resume requests for a `Recorder` from another thread: the latest wins, and the
/// recorder takes it between blocks (within 0.1 s).
package final class PauseRequests: Sendable {
    /// 0: none; 1: pause; 2: resume.
    private let wanted = Atomic<Int>(0)

    package init() {}

    /// Asks the recorder to pause (true) or to resume (false).
    package func request(paused: Bool) { wanted.store(paused ? 1 : 2, ordering: .relaxed) }

    /// The latest request, once: true to pause, false to resume, nil when none is waiting.
    func take() -> Bool? {
        switch wanted.exchange(0, ordering: .relaxed) {
        case 1: true
        case 2: false
        default: nil
        }
    }
}

extension LiveViewSnapshot {
    /// - Parameter timerCountsTranscribed: the card's timer shows the audio transcribed rather
    ///   than recorded (a file read at full speed, where the timer is progress).
    /// - Parameter discards: stopping saves nothing (`--discard`).
    init<Store>(engine: RecordingEngine<Store>, source: any AudioSource, acceptsKeys: Bool, timerCountsTranscribed: Bool, discards: Bool) {
        self.init(presentation: engine.presentation,
                  elapsedSeconds: timerCountsTranscribed ? engine.secondsTranscribed : engine.secondsRecorded,
                  transcribedSeconds: engine.secondsTranscribed,
                  totalSeconds: source.totalFrames.map { Double($0) / Double(source.format.sampleRate) },
                  finals: engine.transcript.finals, interim: engine.transcript.interim, acceptsKeys: acceptsKeys,
                  finishing: engine.phase == .stopping, discards: discards)
    }
}
