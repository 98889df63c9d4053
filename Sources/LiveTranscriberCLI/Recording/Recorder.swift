import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberLinux

/// `record` and `import` on Linux: wires the Linux adapters into the core `RecordingEngine`,
/// pulls the source block by block (paced for files), reads keys and stop signals, and draws.
///
/// One loop on the calling thread: every consumer sees events in order and nothing needs a
/// lock. Stop requests (q, Ctrl-C, SIGTERM) are checked between blocks, at least every 0.1 s.
final class Recorder {
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

    /// - Parameter signals: stop requests shared with the caller (`import` keeps one for all its
    ///   files); by default the recorder installs its own for the run.
    init(options: RecordingOptions, context: CommandContext, store: LibraryStore,
         display: any RecordingDisplay, signals: StopSignals? = nil) {
        self.options = options
        self.context = context
        self.store = store
        self.display = display
        self.signals = signals
    }

    /// Records until the input ends or a stop is requested, then saves (or discards) the draft.
    /// - Returns: the saved recording and its transcript, or nil when discarded.
    /// - Throws: `AudioFileError` / `RecognizerError` before anything is written; a failure in the
    ///   middle saves what was recorded and then throws `RecordingInterrupted`.
    func run() throws -> RecordingWithTranscript? {
        let source = try options.input.open()
        let feed = try options.activityFeed.map { try FeedOutput(path: $0, stdout: context.stdout) }
        defer { feed?.close(); feedFailure = feed?.failure }
        let eventsOutput = try options.events.map { try FeedOutput(path: $0, stdout: context.stdout, label: "event stream") }
        defer { eventsOutput?.close(); eventsFailure = eventsOutput?.failure }
        var eventStream = RecordingEventStream()
        let started = ContinuousClock.now
        let activity = CountingActivityClient(wrapping: JSONLinesActivityClient { feed?.write($0) })
        let timeZone = LibraryAccess.timeZone(context)
        let speechEngine = try options.speech.engine(in: context.environment, note: context.printError)
        let vocabulary = try options.speech.vocabulary(kind: speechEngine, environment: context.environment, library: store.directory,
                                                       note: context.printError)
        let settings = options.importing?.engineSettings(
            language: options.speech.language, tags: options.tags, fileFormat: options.format, timeZone: timeZone, vocabulary: vocabulary
        ) ?? RecordingEngineSettings(
            language: options.speech.language, name: options.name, tags: options.tags, location: options.location,
            fileFormat: options.format, timeZone: timeZone, keepIfInterrupted: !options.discard,  // --discard never survives a crash
            vocabulary: vocabulary)
        let services = LinuxRecordingServices.make(store: store, activity: activity, engine: speechEngine, model: options.speech.model,
                                                   vocabulary: vocabulary, languageWarning: { [context] in context.printError($0) })
        let engine = RecordingEngine(sourceFormat: source.format, settings: settings, services: services) { [display] event in
            if let eventsOutput {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if let line = eventStream.line(for: event, elapsedSeconds: seconds) { eventsOutput.write(line) }
            }
            switch event {
            case .finalAdded(let segment): display.finalAdded(segment); display.transcriptChanged()
            case .interimChanged: display.transcriptChanged()
            case .phaseChanged, .audioReceived: break
            }
        }
        try engine.start()
        let signals = self.signals ?? StopSignals()
        defer { if self.signals == nil { signals.cancel() } }
        // Keys work only with the live card on screen and stdin free (not the audio itself).
        let keys = display.isLive && !options.input.readsStandardInput ? Terminal.enableKeyInput() : nil
        defer { keys?.restore() }
        let snapshot = { LiveViewSnapshot(engine: engine, source: source, acceptsKeys: keys != nil) }

        var sourceFailure: (any Error)?
        do { try pull(source, into: engine, keys: keys, signals: signals, snapshot: snapshot) } catch { sourceFailure = error }
        try engine.stop()
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
                                                  savedID: recording.id, seconds: recording.durationSeconds)
            }
            return RecordingWithTranscript(recording: recording, segments: segments)
        }
    }

    /// Feeds the engine until the source ends, a stop is requested or q is pressed. Space or p
    /// toggles pause; a file waits while paused, live input is drained and dropped by the engine.
    private func pull(_ source: any AudioSource, into engine: RecordingEngine<LibraryStore>, keys: Terminal.KeyInput?,
                      signals: StopSignals, snapshot: () -> LiveViewSnapshot) throws {
        let blockFrames = max(1, source.format.sampleRate / 10)
        var pacer = PlaybackPacer(speed: options.input.isLive ? nil : options.speed.factor, sampleRate: source.format.sampleRate,
                              start: ContinuousClock.now)
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
            if engine.phase == .paused {
                if options.input.isLive { _ = try source.read(maxFrames: blockFrames) }  // drained; the engine drops it
                engine.tick()
                continue
            }
            if let wait = pacer.wait(framesRecorded: engine.framesRecorded, now: ContinuousClock.now) {
                Terminal.sleep(seconds: min(wait, 0.1))  // short steps, so stops are never late
                continue
            }
            guard let buffer = try source.read(maxFrames: blockFrames) else { return }
            try engine.receive(buffer)
            display.render(snapshot(), force: false)
        }
    }
}

extension LiveViewSnapshot {
    init<Store>(engine: RecordingEngine<Store>, source: any AudioSource, acceptsKeys: Bool) {
        self.init(presentation: engine.presentation, elapsedSeconds: engine.secondsRecorded,
                  totalSeconds: source.totalFrames.map { Double($0) / Double(source.format.sampleRate) },
                  finals: engine.transcript.finals, interim: engine.transcript.interim, acceptsKeys: acceptsKeys)
    }
}
