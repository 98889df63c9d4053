import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// Runs one recording: source → draft audio file → transcription → live view and journal → library.
///
/// A single loop on the calling thread handles one block of about 100 ms at a time, so every
/// consumer sees events in order and nothing needs a lock. Stop requests (q, Ctrl-C, SIGTERM)
/// are checked between blocks and always end in a save.
final class Recorder {
    private let options: RecordingOptions
    private let context: CommandContext
    private let store: LibraryStore
    private let clock: any WallClock
    private let display: any RecordingDisplay
    private let signals: StopSignals?
    /// Counters of the last run, for `--stats`.
    private(set) var stats: RecordingStats?
    /// Why the activity feed file could not be written during the last run, if it could not.
    private(set) var feedFailure: String?

    /// - Parameter signals: stop requests shared with the caller (`import` keeps one for all its
    ///   files); by default the recorder installs its own for the run.
    init(options: RecordingOptions, context: CommandContext, store: LibraryStore,
         display: any RecordingDisplay, signals: StopSignals? = nil, clock: any WallClock = SystemClock()) {
        self.options = options
        self.signals = signals
        self.context = context
        self.store = store
        self.display = display
        self.clock = clock
    }

    /// Records until the input ends or a stop is requested, then saves (or discards) the draft.
    /// - Returns: the saved recording and its transcript, or nil when discarded.
    /// - Throws: `AudioFileError` / `RecognizerError` before anything is written; a failure in the
    ///   middle saves what was recorded and then throws `RecordingInterrupted`.
    func run() throws -> RecordingWithTranscript? {
        let language = PocketSphinxModel.englishUS.language
        var lifecycle = RecordingSession(language: language)
        _ = lifecycle.start()  // preparing: the language is locked from here on
        // Open everything that can fail on bad input before the draft exists: nothing is written then.
        let source = try options.input.open()
        let pipeline = try LocalTranscription.makePipeline(for: source.format)
        let storedRate = options.format.storableRate(for: source.format.sampleRate)
        let storageResampler = storedRate == source.format.sampleRate ? nil
            : try SoxrResampler(inputRate: source.format.sampleRate, outputRate: storedRate, channels: source.format.channels)

        let createdAt = clock.now()
        let id = LibraryStore.newRecordingID(date: createdAt)
        let name = options.name ?? LibraryFormat.defaultName(createdAt: createdAt, timeZone: LibraryAccess.timeZone(context))
        let activity = try RecordingActivity(
            attributes: RecordingActivityAttributes(recordingID: id, name: name, startDate: createdAt),
            language: language, feedPath: options.activityFeed, stdout: context.stdout)
        let audio = AudioDescription(format: options.format.rawValue, sampleRate: storedRate, channels: source.format.channels)
        // The draft holds its lock for as long as this value lives: recovery leaves it alone meanwhile.
        // A --discard recording and an import (which can be run again) never survive a crash.
        let draft = try store.createDraft(id: id, createdAt: createdAt, language: language, audio: audio,
                                          name: name, tags: options.tags,
                                          keepIfInterrupted: !options.discard && !options.stopCancels)
        let writer: SndFileWriter
        do {
            writer = try SndFileWriter(path: draft.audioFile.path,
                                       format: AudioFormat(sampleRate: storedRate, channels: source.format.channels),
                                       fileFormat: options.format)
        } catch {
            try? store.discardDraft(draft)
            throw error
        }

        _ = lifecycle.prepared()
        let session = LoopState(source: source, pipeline: pipeline, writer: writer, storageResampler: storageResampler,
                                lifecycle: lifecycle, activity: activity)
        activity.started()
        let signals = self.signals ?? StopSignals()
        defer { if self.signals == nil { signals.cancel() } }
        // Keys work only with the live card on screen and stdin free (not the audio itself).
        let keys = display.isLive && !options.input.readsStandardInput ? Terminal.enableKeyInput() : nil
        defer { keys?.restore() }

        var failure: (any Error)?
        do {
            try loop(session, draft: draft, display: display, keys: keys, signals: signals)
        } catch {
            failure = error
        }
        return try conclude(session, draft: draft, name: name, failure: failure, stopRequested: signals.stopRequested,
                            keysWorked: keys != nil)
    }

    /// After the loop: finishes the last utterance, closes the audio file so it is valid, then
    /// saves the draft, or discards it (`--discard`, no audio, an import cancelled by a stop).
    private func conclude(_ session: LoopState, draft: RecordingDraft, name: String, failure loopFailure: (any Error)?,
                          stopRequested: Bool, keysWorked: Bool) throws -> RecordingWithTranscript? {
        var failure = loopFailure
        let activity = session.activity
        _ = session.lifecycle.stop()
        if failure == nil {
            do {
                for event in try session.pipeline.finish() { session.apply(event, draft: draft, store: store, display: display) }
            } catch { failure = error }
        }
        if let tail = try? session.storageResampler?.flush(), !tail.isEmpty {
            try? session.writer.write(AudioBuffer(samples: tail, channels: session.source.format.channels))
        }
        try session.writer.close()
        _ = session.lifecycle.captureFinished()
        activity.stopped()
        display.finish(session.snapshot(acceptsKeys: keysWorked))
        defer {
            feedFailure = activity.feedFailure
            stats = RecordingStats(interimResults: session.interimResults, finalSegments: session.assembler.finals.count,
                                   activity: activity.counts)
        }

        // A stop request cancels an import: half a file is not a recording.
        let cancelled = options.stopCancels && stopRequested
        if session.framesRecorded == 0 || cancelled || (options.discard && failure == nil) {
            _ = session.lifecycle.discard()
            try store.discardDraft(draft)
            activity.end(dismissal: .immediate)
            if cancelled { throw RecordingInterrupted.cancelled }
            if session.framesRecorded == 0 { throw failure ?? RecordingInterrupted.noAudio }
            return nil
        }
        let duration = session.secondsRecorded
        _ = session.lifecycle.save(name: name, tags: options.tags)
        let recording = try store.saveDraft(draft, name: name, tags: options.tags, location: options.location,
                                            durationSeconds: duration, segments: session.assembler.finals)
        activity.end(dismissal: .default)
        if let failure {
            throw RecordingInterrupted.failed(reason: LiveTranscriberCommandLine.describe(failure), savedID: recording.id, seconds: duration)
        }
        return RecordingWithTranscript(recording: recording, segments: session.assembler.finals)
    }

    private func loop(_ session: LoopState, draft: RecordingDraft, display: any RecordingDisplay,
                      keys: Terminal.KeyInput?, signals: StopSignals) throws {
        let format = session.source.format
        let blockFrames = max(1, format.sampleRate / 10)
        let started = ContinuousClock.now
        var pausedFor = Duration.zero  // completed pauses
        var pausedSince: ContinuousClock.Instant?  // the pause in progress
        var lastHeaderUpdate = ContinuousClock.now
        display.render(session.snapshot(acceptsKeys: keys != nil), force: true)

        while !signals.stopRequested {
            // Keys: space or p toggles pause, q stops. A paused file input waits here for a key.
            let idle = session.paused && !options.input.isLive
            for key in keys?.keys(waiting: idle ? 0.1 : 0) ?? [] {
                switch key {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): return
                case UInt8(ascii: " "), UInt8(ascii: "p"), UInt8(ascii: "P"):
                    session.togglePause()
                    // The whole pause, however long its waits, is left out of the pacing.
                    if session.paused {
                        pausedSince = ContinuousClock.now
                    } else if let since = pausedSince {
                        pausedFor += ContinuousClock.now - since
                        pausedSince = nil
                    }
                    display.render(session.snapshot(acceptsKeys: true), force: true)
                default: break
                }
            }
            if session.paused {
                if options.input.isLive {
                    _ = try session.source.read(maxFrames: blockFrames)  // keep the device drained; drop the audio
                }
                let pausedNow = pausedFor + (pausedSince.map { ContinuousClock.now - $0 } ?? .zero)
                session.activity.advance(to: session.secondsRecorded + pausedNow.seconds)
                continue
            }
            // A file plays in real time (or at --speed N): the next block is due when the wall clock
            // catches up with the audio. Waits are cut into 0.1 s steps so stops are never late.
            if case .factor(let speed) = options.speed, !options.input.isLive {
                let due = started + pausedFor + .seconds(Double(session.framesRecorded) / Double(format.sampleRate) / speed)
                let wait = due - ContinuousClock.now
                if wait > .zero {
                    Terminal.sleep(seconds: min(wait.seconds, 0.1))
                    continue
                }
            }
            guard let buffer = try session.source.read(maxFrames: blockFrames) else { return }
            // An empty block: no data yet from a pipe; go round again so stop requests are seen.
            if buffer.frameCount == 0 { continue }
            try session.record(buffer)
            for event in try session.pipeline.process(buffer) {
                session.apply(event, draft: draft, store: store, display: display)
            }
            session.activity.advance(to: session.secondsRecorded + pausedFor.seconds)
            if ContinuousClock.now - lastHeaderUpdate >= .milliseconds(500) {
                try session.writer.updateHeader()
                lastHeaderUpdate = ContinuousClock.now
            }
            display.render(session.snapshot(acceptsKeys: keys != nil), force: false)
        }
    }
}

/// What happened during a recording, for `record --stats` and the benchmark.
struct RecordingStats {
    var interimResults: Int
    var finalSegments: Int
    var activity: CountingActivityClient.Counts

    /// One line: "stats: 42 interim results, 5 final segments; Live Activity: 1 start, 6 updates, 1 end; largest content state 830 bytes".
    var line: String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "stats: \(count(interimResults, "interim result")), \(count(finalSegments, "final segment")); "
            + "Live Activity: \(count(activity.starts, "start")), \(count(activity.updates, "update")), \(count(activity.ends, "end")); "
            + "largest content state \(activity.largestPayloadBytes) bytes"
    }
}

/// Why a recording ended badly.
enum RecordingInterrupted: Error, CustomStringConvertible {
    case noAudio
    case cancelled
    case failed(reason: String, savedID: String, seconds: Double)

    var description: String {
        switch self {
        case .noAudio:
            return "no audio was recorded (the input was empty); nothing was saved"
        case .cancelled:
            return "stopped before the end of the file; nothing was saved from it"
        case .failed(let reason, let id, let seconds):
            return "\(reason); the \(TimeText.elapsed(seconds)) recorded before it were saved as \(id)"
        }
    }
}

/// The mutable state of one recording loop.
private final class LoopState {
    let source: any AudioSource
    let pipeline: TranscriptionPipeline
    let writer: SndFileWriter
    let storageResampler: SoxrResampler?
    var assembler = TranscriptAssembler()
    var framesRecorded = 0
    var interimResults = 0
    /// The session state machine (recording, paused, stopping, draft, saved or discarded).
    var lifecycle: RecordingSession
    let activity: RecordingActivity

    init(source: any AudioSource, pipeline: TranscriptionPipeline, writer: SndFileWriter, storageResampler: SoxrResampler?,
         lifecycle: RecordingSession, activity: RecordingActivity) {
        self.lifecycle = lifecycle
        self.activity = activity
        self.source = source
        self.pipeline = pipeline
        self.writer = writer
        self.storageResampler = storageResampler
    }

    var paused: Bool { lifecycle.phase == .paused }

    /// Space or p: pauses or resumes, as the session allows, and tells the Live Activity.
    func togglePause() {
        for action in paused ? lifecycle.resume() : lifecycle.pause() {
            switch action {
            case .pauseCapture: activity.paused()
            case .resumeCapture: activity.resumed()
            default: break
            }
        }
    }

    /// Writes the original audio (converted only when the stored format requires another rate).
    func record(_ buffer: AudioBuffer) throws {
        if let storageResampler {
            let converted = try storageResampler.process(buffer.samples)
            if !converted.isEmpty { try writer.write(AudioBuffer(samples: converted, channels: buffer.channels)) }
        } else {
            try writer.write(buffer)
        }
        framesRecorded += buffer.frameCount
    }

    func apply(_ event: RecognitionEvent, draft: RecordingDraft, store: LibraryStore, display: any RecordingDisplay) {
        if case .interim = event { interimResults += 1 }
        let change = assembler.apply(event)
        if case .finalAdded(let index) = change {
            let segment = assembler.finals[index]
            // The journal is what a crash keeps: written and flushed before anything is shown.
            try? store.appendToJournal(segment, draft: draft)
            display.finalAdded(segment)
            activity.finalsChanged(assembler.finals)
        }
        if change == .interimChanged { activity.interimChanged(assembler.interim ?? "") }
        if change != .none { display.transcriptChanged() }
    }

    /// Seconds of audio recorded so far.
    var secondsRecorded: Double { Double(framesRecorded) / Double(source.format.sampleRate) }

    func snapshot(acceptsKeys: Bool) -> LiveViewSnapshot {
        LiveViewSnapshot(presentation: activity.presentation,
                         elapsedSeconds: secondsRecorded,
                         totalSeconds: source.totalFrames.map { Double($0) / Double(source.format.sampleRate) },
                         finals: assembler.finals, interim: assembler.interim, acceptsKeys: acceptsKeys)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
