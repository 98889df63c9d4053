import Foundation

/// Runs one recording from the record button to a saved or discarded draft, for every front end.
///
/// The engine drives `RecordingSession` and performs every action it returns: it creates the
/// draft and the audio file writer, feeds audio to the writer (the original format, stereo stays
/// stereo) and to the `TranscriptionPipeline`, assembles the transcript, journals each final
/// segment before anyone sees it, keeps the audio file's header valid, and tells the Live
/// Activity coordinator when the recording starts, gets a final segment, pauses, resumes, stops
/// and ends. It reaches the outside only through `RecordingEngineServices`.
///
/// Audio may be pushed (a capture callback calls `receive(_:)`) or pulled (a loop reads an
/// `AudioSource` and calls `receive(_:)`); the engine does not care which. Calls must come from
/// one thread at a time.
///
/// ```swift
/// let engine = RecordingEngine(sourceFormat: source.format, settings: settings, services: services)
/// try engine.start()
/// while let buffer = try source.read(maxFrames: 4_800) { try engine.receive(buffer) }
/// try engine.stop()
/// let outcome = try engine.finish(keep: true)   // .saved(recording, segments)
/// ```
public final class RecordingEngine<Store: RecordingDraftStore> {
    /// What a finished recording became.
    public enum Outcome {
        /// Saved into the library with these final segments.
        case saved(Recording, segments: [TranscriptSegment])
        /// Deleted: the front end asked for it, or no audio arrived.
        case discarded(DiscardReason)
    }

    /// Why a recording was discarded.
    public enum DiscardReason: Sendable, Equatable {
        /// `finish(keep: false)`: `--discard`, a cancelled import, the user's discard button.
        case requested
        /// Less than `Recording.shortestAudioSeconds` of audio was recorded (none, a few stray bytes such as
        /// `printf abc` on standard input, or a WAV cut off a few milliseconds after its header):
        /// too short to hear or transcribe.
        case noAudio
    }

    /// The session's phase, as views show it.
    public var phase: RecordingSession.Phase { session.phase }
    /// The transcript so far: finals in start order and the interim line.
    public private(set) var transcript = TranscriptAssembler()
    /// Frames of source audio recorded (pauses excluded).
    public private(set) var framesRecorded = 0
    /// Interim results received, for statistics.
    public private(set) var interimResults = 0
    /// The RMS level of the last block received, 0 (silence) to about 0.7 (a full-scale sine).
    public private(set) var level: Float = 0
    /// The Live Activity's attributes, fixed once recording starts.
    public private(set) var attributes: RecordingActivityAttributes?
    /// The first error met while capturing, if any; `stop()` still closes the file validly.
    public private(set) var captureFailure: (any Error)?
    /// Seconds of recorded audio whose transcript is done, from the start (pauses excluded): what
    /// progress counts. Behind `secondsRecorded` while a recognizer decodes on another thread;
    /// it never goes back.
    public private(set) var secondsTranscribed: Double = 0
    /// The audio the saved recording holds without a transcript, set by `stop(stopRequested:)`
    /// when a stop (or a capture failure) abandoned pending decodes; nil when all was transcribed.
    public private(set) var untranscribedAudio: UntranscribedAudio?

    private let sourceFormat: AudioFormat
    private let settings: RecordingEngineSettings
    private let services: RecordingEngineServices<Store>
    private let observer: (RecordingEngineEvent) -> Void
    private var session: RecordingSession
    private var running: Running?
    private var draftSummary: (durationSeconds: Double, segments: [TranscriptSegment])?

    /// What exists from `prepare` until the draft is saved or discarded.
    private struct Running {
        var draft: Store.Draft
        var writer: any AudioFileWriter
        var storageResampler: (any Resampler)?
        var pipeline: TranscriptionPipeline
        var coordinator: LiveActivityCoordinator
        var timeline: RecordingTimeline
        var capturing = false
        var pausedSince: Date?
        var pausedSeconds: Double = 0
        var lastHeaderUpdate: Date
        var lastTick = -1
        var writerClosed = false
        var recognizerFinished = false
        /// The language the draft was last given (`RecordingDraftStore.updateLanguage`).
        var draftLanguage: String
        /// The language the Live Activity was last given (`LiveActivityCoordinator.languageChanged`).
        var activityLanguage: String
    }

    /// - Parameters:
    ///   - sourceFormat: the rate and channel count of the audio `receive(_:)` will get.
    ///   - observer: told of phase, transcript and level changes, on the caller's thread.
    public init(
        sourceFormat: AudioFormat, settings: RecordingEngineSettings, services: RecordingEngineServices<Store>,
        observer: @escaping (RecordingEngineEvent) -> Void = { _ in }
    ) {
        self.sourceFormat = sourceFormat
        self.settings = settings
        self.services = services
        self.observer = observer
        self.session = RecordingSession(language: settings.language)
    }

    /// The recording id, once started.
    public var recordingID: String? { running?.draft.id }

    /// Seconds of audio recorded, pauses excluded.
    public var secondsRecorded: Double { Double(framesRecorded) / Double(sourceFormat.sampleRate) }

    /// True when at least `Recording.shortestAudioSeconds` (0.1 s) of audio was recorded; with
    /// less, `finish` discards the draft as `.noAudio` rather than saving a 0:00 recording.
    private var recordedAudio: Bool { Recording.holdsAudio(frames: Int64(framesRecorded), sampleRate: sourceFormat.sampleRate) }

    /// The Lock Screen view model of the latest content state sent to the Live Activity.
    public var presentation: LockScreenPresentation? {
        guard let attributes, let content = running?.coordinator.lastContentState else { return nil }
        return LockScreenPresentation(attributes: attributes, content: content)
    }

    // MARK: Events from the front end

    /// Starts recording: prepares the recognizer, the draft and its audio file, then the Live Activity.
    /// - Throws: the preparation's error (a missing model, a library that cannot be written),
    ///   after releasing whatever was opened; `RecordingSessionError` when not idle.
    public func start() throws {
        try perform(session.start())
    }

    /// Records one block of source audio (any length, `sourceFormat`). Ignored while paused.
    /// - Throws: the writer's, recognizer's or journal's error; the engine remembers it as
    ///   `captureFailure`, and `stop()` then keeps what was recorded before it.
    public func receive(_ buffer: AudioBuffer) throws {
        guard var state = running, state.capturing, buffer.frameCount > 0 else { return }
        do {
            if let resampler = state.storageResampler {
                let converted = try resampler.process(buffer.samples)
                if !converted.isEmpty { try state.writer.write(AudioBuffer(samples: converted, channels: buffer.channels)) }
            } else {
                try state.writer.write(buffer)
            }
            framesRecorded += buffer.frameCount
            level = AudioMath.rmsLevel(buffer.samples)
            for event in try state.pipeline.process(buffer) { try apply(event, draft: state.draft, coordinator: state.coordinator) }
            noteTranscribed(state.pipeline)
            let now = services.clock.now()
            if now.timeIntervalSince(state.lastHeaderUpdate) >= settings.headerUpdateInterval {
                try state.writer.updateHeader()
                state.lastHeaderUpdate = now
            }
        } catch {
            captureFailure = captureFailure ?? error
            throw error
        }
        running = state
        advanceTimeline()
        observer(.audioReceived(seconds: secondsRecorded, level: level))
    }

    /// True when a file input should wait (`awaitTranscription(upToSeconds:)`) before the next
    /// block: more than `settings.pendingTranscription.readAheadLimitSeconds` of the audio received
    /// has no transcript yet. Waiting keeps the audio held for decoding, and memory, bounded.
    public var transcriptionIsBehind: Bool {
        guard let state = running, state.capturing else { return false }
        let pipeline = state.pipeline
        let behind = Double(pipeline.samplesRecognized - pipeline.samplesTranscribed) / Double(pipeline.recognizerSampleRate)
        return settings.pendingTranscription.readerMustWait(untranscribedSeconds: behind)
    }

    /// Waits up to `seconds` (wall time) for the decode in flight, then takes the results of the
    /// decodes finished (journaled and reported like those of `receive(_:)`). Returns at once when
    /// nothing is being decoded.
    /// - Throws: the recognizer's or journal's error; the engine remembers it as `captureFailure`.
    public func awaitTranscription(upToSeconds seconds: Double) throws {
        guard let state = running, state.capturing else { return }
        do {
            for event in try state.pipeline.awaitEvents(upToSeconds: seconds) {
                try apply(event, draft: state.draft, coordinator: state.coordinator)
            }
        } catch {
            captureFailure = captureFailure ?? error
            throw error
        }
        noteTranscribed(state.pipeline)
        advanceTimeline()
    }

    private func noteTranscribed(_ pipeline: TranscriptionPipeline) {
        let seconds = Double(pipeline.samplesTranscribed) / Double(pipeline.recognizerSampleRate)
        secondsTranscribed = min(secondsRecorded, max(secondsTranscribed, seconds))
    }

    /// Lets time-driven rules run while no audio flows (paused, or waiting on a slow source):
    /// the Live Activity's stale date and 8-hour renewal. Cheap; call it a few times a second.
    public func tick() {
        advanceTimeline()
    }

    /// Pauses: audio received while paused is dropped and the pause is left out of the duration.
    /// - Throws: `RecordingSessionError` unless recording.
    public func pause() throws { try perform(session.pause()) }

    /// Resumes after a pause. Throws `RecordingSessionError` unless paused.
    public func resume() throws { try perform(session.resume()) }

    /// Pauses when recording, resumes when paused (a single pause key).
    public func togglePause() throws {
        try phase == .paused ? resume() : pause()
    }

    /// Stops capture: ends the last utterance, flushes and closes the audio file so it is valid,
    /// and shows the stopped state on the Live Activity. The draft then waits for `finish(keep:)`.
    /// - Throws: `RecordingSessionError` unless recording or paused; the writer's error when the
    ///   file cannot be closed (the draft is then left for crash recovery).
    public func stop() throws {
        try stop(stopRequested: { false })
    }

    /// Stops capture like `stop()`, with a way out of waiting for transcription that runs behind
    /// the audio: while decodes are pending, `stopRequested` is called every 0.1 s or so (draw
    /// progress there); once it returns true (q, Ctrl-C, SIGTERM), the pending decodes get
    /// `settings.pendingTranscription.stopGraceSeconds` more (the injected clock), then are
    /// abandoned and joined. The audio file keeps everything received; `untranscribedAudio` then
    /// says which part has no transcript. After a capture failure pending decodes are abandoned at once.
    /// - Throws: as `stop()`.
    public func stop(stopRequested: @escaping () -> Bool) throws {
        self.stopRequested = stopRequested
        defer { self.stopRequested = { false } }
        try perform(session.stop())
    }

    /// Saves the draft (`keep`) or deletes it; a draft with no audio is always deleted.
    /// - Parameters:
    ///   - keep: false to discard.
    ///   - name, tags: the save sheet's values; nil keeps those given in the settings.
    ///   - location: where the recording was made, when the save sheet's location switch is on;
    ///     nil keeps the settings' location.
    /// - Returns: what the recording became.
    /// - Throws: `RecordingSessionError` unless stopped; the store's error when saving fails
    ///   (the draft stays on disk and the next start-up recovers it).
    public func finish(
        keep: Bool, name: String? = nil, tags: [String]? = nil, location: RecordingLocation? = nil
    ) throws -> Outcome {
        guard session.phase == .draft else {
            try perform(session.save())  // rejected: throws the session's error
            preconditionFailure("save is only accepted in the draft phase")
        }
        if !recordedAudio || !keep {
            try perform(session.discard())
            return .discarded(recordedAudio ? .requested : .noAudio)
        }
        saveLocation = location ?? settings.location
        try perform(session.save(name: name ?? settings.name, tags: tags ?? settings.tags))
        guard let saved = savedRecording else { preconditionFailure("saveDraft sets the saved recording") }
        return .saved(saved, segments: draftSummary?.segments ?? [])
    }

    /// Changes the transcription language; accepted only before recording (and in the draft,
    /// where it re-transcribes the audio with `services.retranscribe`).
    public func changeLanguage(_ language: String) throws {
        try perform(session.changeLanguage(language))
    }

    // MARK: Actions of the session

    private var savedRecording: Recording?
    /// The front end's stop check while `stop(stopRequested:)` runs.
    private var stopRequested: () -> Bool = { false }
    /// The location `finish` saves with.
    private var saveLocation: RecordingLocation?
    private var reportedPhase = RecordingSession.Phase.idle

    /// Runs the session's actions, reporting each phase once it holds: saved and discarded only
    /// after the store has saved or discarded the draft (a save that fails, say on a full disk or
    /// a duplicate import, is not announced as saved), every other phase before its actions run.
    private func perform(_ actions: [RecordingSession.Action]) throws {
        if !session.phase.isOutcome { reportPhase() }
        for action in actions {
            switch action {
            case .prepare(let language):
                do {
                    try prepare(language: language)
                } catch {
                    try perform(session.preparationFailed(String(describing: error)))
                    throw error
                }
                try perform(session.prepared())
            case .startCapture:
                running?.capturing = true
                running?.coordinator.recordingStarted()
            case .pauseCapture:
                running?.capturing = false
                running?.pausedSince = services.clock.now()
                running?.coordinator.paused()
            case .resumeCapture:
                closePause()
                running?.capturing = true
                running?.coordinator.resumed()
            case .finishCapture:
                try finishCapture()
                try perform(session.captureFinished())
            case .releaseResources:
                releaseResources()
            case .presentDraft:
                guard let state = running else { break }
                draftSummary = (secondsRecorded, transcript.finals)
                state.coordinator.stopped()
            case .saveDraft(let name, let tags):
                guard let state = running, let summary = draftSummary else { break }
                // Segments in their own languages: the recording's is the one with the most speech.
                let main = SegmentLanguages.mainLanguage(summary.segments, recordingLanguage: state.pipeline.language)
                draftSummary?.segments = main.segments  // what `save` returns is what was saved
                savedRecording = try services.store.saveDraft(
                    state.draft, name: name, tags: tags, location: saveLocation,
                    durationSeconds: summary.durationSeconds, segments: main.segments, encoding: saveEncoding,
                    imported: settings.imported, language: main.language, vocabulary: settings.vocabulary.terms,
                    notes: state.pipeline.notes)
                state.coordinator.end(dismissal: .default)
                running = nil
            case .discardDraft:
                guard let state = running else { break }
                try services.store.discardDraft(state.draft)
                state.coordinator.end(dismissal: .immediate)
                running = nil
            case .applyLanguage(let language):
                try applyLanguage(language)
            case .reportFailure:
                // The error itself is rethrown by `.prepare`'s catch, which reported it here.
                break
            case .rejected(let error):
                throw error
            }
            reportPhase()
        }
    }

    private func reportPhase() {
        guard session.phase != reportedPhase else { return }
        reportedPhase = session.phase
        observer(.phaseChanged(session.phase))
    }

    /// Opens everything that can fail on bad input before the draft exists, then the draft.
    private func prepare(language: String) throws {
        if settings.fileFormat.isEncodedOnSave, services.encoder == nil {
            throw RecordingEngineError.cannotEncode(settings.fileFormat)
        }
        let recognizer = try services.makeRecognizer(language)
        let engineRate = recognizer.inputFormat.sampleRate
        let recognitionResampler = engineRate == sourceFormat.sampleRate ? nil
            : try services.makeResampler(sourceFormat.sampleRate, engineRate, 1)
        let storedRate = settings.fileFormat.storableRate(for: sourceFormat.sampleRate)
        let storageResampler = storedRate == sourceFormat.sampleRate ? nil
            : try services.makeResampler(sourceFormat.sampleRate, storedRate, sourceFormat.channels)

        let createdAt = services.clock.now()
        let id = services.store.newRecordingID(date: createdAt)
        let name = settings.name ?? RecordingName.defaultName(createdAt: createdAt, timeZone: settings.timeZone)
        let attributes = RecordingActivityAttributes(recordingID: id, name: name, startDate: createdAt)
        // The draft is written in a format a crash leaves readable (`draftFormat`: WAV for M4A).
        let draftFormat = settings.fileFormat.draftFormat
        let audio = AudioDescription(format: StoredAudioFormat(draftFormat), sampleRate: storedRate, channels: sourceFormat.channels)
        let draft = try services.store.createDraft(id: id, createdAt: createdAt, language: recognizer.language,
                                                   audio: audio, name: settings.name, tags: settings.tags,
                                                   keepIfInterrupted: settings.keepIfInterrupted, vocabulary: settings.vocabulary.terms)
        let writer: any AudioFileWriter
        do {
            writer = try services.makeWriter(draft.audioFile, AudioFormat(sampleRate: storedRate, channels: sourceFormat.channels),
                                             draftFormat)
        } catch {
            try? services.store.discardDraft(draft)  // nothing was recorded; the writer's error is the one to report
            throw error
        }
        let timeline = RecordingTimeline(start: createdAt)
        let coordinator = LiveActivityCoordinator(attributes: attributes, language: recognizer.language,
                                                  clock: timeline, client: services.activity)
        self.attributes = attributes
        running = Running(draft: draft, writer: writer, storageResampler: storageResampler,
                          pipeline: TranscriptionPipeline(resampler: recognitionResampler, recognizer: recognizer),
                          coordinator: coordinator, timeline: timeline, lastHeaderUpdate: createdAt,
                          draftLanguage: recognizer.language, activityLanguage: recognizer.language)
    }

    /// How `finish` asks the store to save the draft's audio: encoded to the settings' format
    /// when the draft was recorded in another (`RecordingAudioFormat.isEncodedOnSave`).
    private var saveEncoding: DraftAudioEncoding? {
        guard settings.fileFormat.isEncodedOnSave, let encoder = services.encoder else { return nil }
        return DraftAudioEncoding(format: settings.fileFormat, encoder: encoder)
    }

    /// Ends recognition (unless it already failed) and closes the audio file.
    private func finishCapture() throws {
        guard var state = running else { return }
        closePause()
        state = running ?? state
        state.capturing = false
        // No audio comes after this: the Live Activity (and every card drawn from it) shows the
        // recording stopped, its clock fixed, while the last decodes end (up to 30 s of audio
        // for a file read ahead), not a recording whose clock runs on.
        state.coordinator.stopped()
        if captureFailure == nil {
            // The stop rule (`PendingTranscription`): pending decodes get a grace after a stop request.
            let rule = settings.pendingTranscription
            let (clock, stopRequested) = (services.clock, self.stopRequested)
            // Asked once first: a recognizer that finishes at once (pocketsphinx) then skips its refinements.
            var requestedAt: Date? = stopRequested() ? clock.now() : nil
            let pipeline = state.pipeline
            let (draft, coordinator) = (state.draft, state.coordinator)
            do {
                // Each decode's lines are journaled and shown as it ends, not all at once when the
                // last one does (a file read ahead leaves up to 30 s of audio to decode here).
                var deliveryFailure: (any Error)?
                let ending = try pipeline.finish(stopRequested: requestedAt != nil, abandoning: {
                    // The decodes finished since the last check count before the front end draws
                    // its progress (an import's bar moves through the last 30 s of a file, too).
                    noteTranscribed(pipeline)
                    let asked = stopRequested()  // every time: the front end draws progress there
                    if requestedAt == nil, asked { requestedAt = clock.now() }
                    return deliveryFailure != nil || rule.abandons(stopRequestedAt: requestedAt, now: clock.now())
                }, delivering: { events in
                    guard deliveryFailure == nil else { return }
                    do {
                        for event in events { try apply(event, draft: draft, coordinator: coordinator) }
                    } catch {
                        deliveryFailure = error  // a journal that cannot be written: the recording's error
                    }
                })
                if let deliveryFailure { throw deliveryFailure }
                for event in ending.events { try apply(event, draft: draft, coordinator: coordinator) }
                // Decodes abandoned with no audio after the transcript (a stop at the very end) leave none untranscribed.
                if let from = ending.untranscribedFromSeconds, from < secondsRecorded {
                    untranscribedAudio = UntranscribedAudio(fromSeconds: from, toSeconds: secondsRecorded)
                } else {
                    secondsTranscribed = secondsRecorded
                }
            } catch {
                captureFailure = error
            }
        }
        if captureFailure != nil {
            // No decode may outlive the capture (the process may exit next): cancel and join them.
            // Their results are not used: the transcript ends where the failure stopped it.
            let behind = state.pipeline.samplesRecognized > state.pipeline.samplesTranscribed
            state.pipeline.cancel()
            if behind { untranscribedAudio = UntranscribedAudio(fromSeconds: secondsTranscribed, toSeconds: secondsRecorded) }
        }
        if let resampler = state.storageResampler, captureFailure == nil {
            let tail = try resampler.flush()
            if !tail.isEmpty { try state.writer.write(AudioBuffer(samples: tail, channels: sourceFormat.channels)) }
        }
        try state.writer.close()
        state.writerClosed = true
        running = state
    }

    private func releaseResources() {
        guard let state = running else { return }
        if !state.writerClosed { try? state.writer.close() }  // nothing of value was written
        try? services.store.discardDraft(state.draft)         // the preparation's error is reported instead
        running = nil
    }

    private func applyLanguage(_ language: String) throws {
        // Idle: the next `start()` uses the session's new language. Draft: transcribe again.
        guard session.phase == .draft, let state = running else { return }
        guard let retranscribe = services.retranscribe else { throw RecordingEngineError.cannotRetranscribe }
        let segments = try retranscribe(state.draft.audioFile, language)
        draftSummary = (draftSummary?.durationSeconds ?? secondsRecorded, segments)
    }

    // MARK: Transcript

    private func apply(_ event: RecognitionEvent, draft: Store.Draft, coordinator: LiveActivityCoordinator) throws {
        if case .interim = event { interimResults += 1 }
        // Under "auto" the language is identified before anything is decoded: from the first
        // line on, the Live Activity (and every card drawn from it) shows the language the
        // recording is saved with, not the fallback it started with.
        if let running, running.pipeline.language != running.activityLanguage {
            coordinator.languageChanged(running.pipeline.language)
            self.running?.activityLanguage = running.pipeline.language
        }
        switch transcript.apply(event) {
        case .none:
            break
        case .interimChanged:
            coordinator.interimChanged(transcript.interim ?? "")
            observer(.interimChanged(transcript.interim))
        case .finalAdded(let index):
            let segment = transcript.finals[index]
            // Under "auto" the language is identified before anything is decoded, so it is known by
            // the first final: the draft says so before its first line, and a recovered draft keeps it.
            if let running, running.pipeline.language != running.draftLanguage {
                try services.store.updateLanguage(running.pipeline.language, draft: draft)
                self.running?.draftLanguage = running.pipeline.language
            }
            // The journal is what a crash keeps: durable before anything is shown.
            try services.store.appendToJournal(segment, draft: draft)
            coordinator.finalSegmentsChanged(transcript.finals)
            observer(.finalAdded(segment))
        }
    }

    // MARK: Time

    private func closePause() {
        guard let since = running?.pausedSince else { return }
        running?.pausedSeconds += max(0, services.clock.now().timeIntervalSince(since))
        running?.pausedSince = nil
    }

    /// Moves the recording's timeline (audio seconds plus pauses) and lets the coordinator's time
    /// rules run every `settings.activityTickSeconds` of it.
    private func advanceTimeline() {
        guard var state = running else { return }
        let pausing = state.pausedSince.map { max(0, services.clock.now().timeIntervalSince($0)) } ?? 0
        let seconds = secondsRecorded + state.pausedSeconds + pausing
        state.timeline.advance(to: seconds)
        let tick = Int(seconds / settings.activityTickSeconds)
        if tick != state.lastTick {
            state.lastTick = tick
            state.coordinator.clockTicked()
        }
        running = state
    }
}
