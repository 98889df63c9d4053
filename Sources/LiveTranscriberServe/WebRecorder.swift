import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import Synchronization

/// Records this machine's microphone from the page: the same `Recorder` (and so the same core
/// `RecordingEngine`, engine, store and `live/` folder) as `record`, on a thread of its own, one
/// recording at a time. Its live lines reach this server's Live view in memory
/// (`LiveRecordings.feed()`); the `live/` folder is still written, for other programs.
/// `serve --record-input FILE` records a file played in real time instead (for machines without a
/// microphone, and for tests).
final class WebRecorder: Sendable {
    /// What the page shows of the recorder.
    struct Status: Sendable, Equatable, Encodable {
        /// What it records: "the microphone (default)" or the file's name.
        var input: String
        /// "idle", "starting" (the model loads), "recording", "paused" or "stopping".
        var state: String
        /// The last recording it saved, by id.
        var saved: String?
        /// Why the last recording failed or was not saved, one sentence.
        var error: String?
    }

    /// A request the recorder refuses: the HTTP status and why.
    struct Refusal: Error {
        var status: Int
        var message: String
    }

    private struct Running {
        var stop = StopFlag()
        var pauses = PauseRequests()
    }

    private let context: CommandContext
    private let input: RecordingInput
    private let recordings: LiveRecordings
    private let state: Mutex<(status: Status, running: Running?)>
    /// Whether the recording thread has ended (true while none runs), waited on by `stopForShutdown`.
    private let finished = ThreadEnd()
    /// True once the server began to stop: a recording saved then is not refined.
    private let shuttingDown = Atomic<Bool>(false)
    /// Refines each recording saved from the page that `TranscriptRefinement` wants transcribed
    /// again as a file, as a transcribe-again job the recording's page follows; nil for none.
    private let refiner: WebRetranscriber?

    /// - Parameters:
    ///   - input: what to record (`.microphone`, or `.file` played at real time).
    ///   - inputName: the file's name as the page shows it, when `input` is a stand-in (a pipe's
    ///     temporary copy, `UserPath`); nil for the last component of its path.
    ///   - recordings: told of every change, so the page's event streams send it, and fed each
    ///     recording's live lines in memory (`LiveRecordings.feed()`).
    ///   - refiner: transcribes each saved recording again as a file (`TranscriptRefinement`), as `record` does.
    init(context: CommandContext, input: RecordingInput, inputName: String? = nil, recordings: LiveRecordings,
         refiner: WebRetranscriber? = nil) {
        self.context = context
        self.refiner = refiner
        self.input = input
        self.recordings = recordings
        let name: String
        switch input {
        case .microphone(let device, _, _): name = "the microphone (\(device))"
        case .file(let path), .rawPCM(let path, _, _): name = inputName ?? URL(fileURLWithPath: path).lastPathComponent
        }
        state = Mutex((Status(input: name, state: "idle"), nil))
    }

    var status: Status { state.withLock { $0.status } }

    /// Starts a recording; `body` is JSON `{"name"?, "language"?, "tags"?}` (all optional).
    /// - Throws: `Refusal` 409 when one is under way or the library cannot be changed (`LibraryStore.writeBlock(at:)`: nothing
    ///   is started), 400 for a bad body, name (`RecordingName.validated`), language tag or tag, or a language the engine cannot take.
    func start(_ body: Data) throws {
        struct Body: RequestBody {
            var name: String?
            var language: String?
            var tags: [String]?
            enum CodingKeys: String, CodingKey, CaseIterable { case name, language, tags }
        }
        let request: Body
        do {
            request = body.isEmpty ? Body() : try Body.decoded(from: body)
        } catch let refused as RequestBodyRefused {
            throw Refusal(status: 400, message: refused.message)
        }
        let language: String
        let tags: [String]
        do {
            language = try SpeechOptions.languageTag(request.language ?? LanguageChoice.default.name)
            // A language the engine cannot take is refused here, not as a recording that fails once started.
            try SpeechOptions.validate(SpeechOptions.defaultEngine(context.environment), language: language, model: nil)
            tags = try RecordingTags.normalized(request.tags ?? [])
        } catch let error as UsageError {
            throw Refusal(status: 400, message: error.message)
        } catch {
            throw Refusal(status: 400, message: CommandRunner.describe(error))
        }
        // The name rule of `record --name` and of renaming (a control character: 400, never made a space).
        let name: String?
        do {
            name = try RecordingName.validatedUnlessBlank(request.name)
        } catch {
            throw Refusal(status: 400, message: CommandRunner.describe(error))
        }
        if let block = LibraryStore.writeBlock(at: context.dataDirectory) { throw Refusal(status: 409, message: block.description) }
        let running = try state.withLock { state -> Running in
            guard state.running == nil else { throw Refusal(status: 409, message: "a recording from this page is already under way") }
            let running = Running()
            state.running = running
            finished.begin()
            state.status = Status(input: state.status.input, state: "starting", saved: state.status.saved)
            return running
        }
        recordings.touch()
        let options = RecordingOptions(input: input, speed: .factor(1), name: name, tags: tags, location: nil, format: .wav,
                                       activityFeed: nil, json: true, discard: false,
                                       speech: SpeechOptions(engineChoice: nil, language: language, model: nil))
        let thread = Thread { [self] in record(options, running) }
        thread.name = "page recording"
        thread.start()
    }

    /// Pauses (true) or resumes (false) the recording under way.
    /// - Throws: `Refusal` 409 when none is.
    func pause(_ paused: Bool) throws {
        let pauses = try state.withLock { state -> PauseRequests in
            guard let running = state.running else { throw Refusal(status: 409, message: "no recording from this page is under way") }
            return running.pauses
        }
        pauses.request(paused: paused)
    }

    /// Stops the recording under way; it is saved.
    /// - Throws: `Refusal` 409 when none is.
    func stop() throws {
        try state.withLock { state in
            guard let running = state.running else { throw Refusal(status: 409, message: "no recording from this page is under way") }
            running.stop.raise()
            if state.status.state != "starting" { state.status.state = "stopping" }
        }
        recordings.touch()
    }

    /// Stops the recording under way as the server stops (Ctrl-C, SIGTERM); returns once it is saved.
    func stopForShutdown() {
        shuttingDown.store(true, ordering: .relaxed)
        state.withLock { $0.running?.stop.raise() }
        finished.wait()
    }

    private func record(_ options: RecordingOptions, _ running: Running) {
        defer { finished.end() }
        var quiet = context
        quiet.stdout = BufferOutput()
        quiet.stderr = BufferOutput()
        let display = PageDisplay { [self] paused in
            state.withLock { state in
                if state.status.state != "stopping" { state.status.state = paused ? "paused" : "recording" }
            }
            recordings.touch()
        }
        var outcome = Status(input: status.input, state: "idle")
        do {
            let saved = try LibraryAccess.savingInto(quiet) {
                let store = try LibraryAccess.open(quiet)
                let recorder = Recorder(options: options, context: quiet, store: store, display: display,
                                        signals: StopSignals(following: running.stop), pauseRequests: running.pauses,
                                        liveFeed: recordings.feed())
                return try recorder.run()
            }
            outcome.saved = saved?.recording.id
            if let recording = saved?.recording, let engine = try? options.speech.engine(in: context.environment),
               TranscriptRefinement.decision(engine: engine, turnedOff: false,
                                             audioSeconds: recording.durationSeconds,
                                             stoppedByTermination: shuttingDown.load(ordering: .relaxed)) == .refine {
                _ = try? refiner?.start(recording, .refine(recordedUnder: LanguageChoice(options.speech.language)))
            }
        } catch AudioFileError.captureFailed(let device, let reason) {
            // Said for the page: the way out is serve's option, not record's.
            outcome.error = "cannot capture from audio device '\(device)': \(reason). Start serve with --record-input FILE to record a file instead"
        } catch {
            outcome.error = CommandRunner.describe(error)
        }
        state.withLock { state in
            state.status = outcome
            state.running = nil
        }
        recordings.touch()
    }
}

/// The end of the page's recording thread, which another thread can wait for.
private final class ThreadEnd: Sendable {
    private let ended = Atomic<Bool>(true)
    /// Broadcast by `end()`.
    private let condition = NSCondition()

    /// A recording thread is about to start.
    func begin() { ended.store(false, ordering: .sequentiallyConsistent) }

    /// The recording thread is ending: wakes every `wait()`.
    func end() {
        ended.store(true, ordering: .sequentiallyConsistent)
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once no recording thread runs (at once when none was started).
    func wait() {
        condition.lock()
        defer { condition.unlock() }
        while !ended.load(ordering: .sequentiallyConsistent) { condition.wait() }
    }
}

/// The page recorder's view of a recording: says when it records and when it is paused (the
/// recorder draws with `force` after starting and after every pause or resume).
private final class PageDisplay: RecordingDisplay {
    private let changed: (_ paused: Bool) -> Void

    init(changed: @escaping (_ paused: Bool) -> Void) {
        self.changed = changed
    }

    var isLive: Bool { false }

    func render(_ snapshot: @autoclosure () -> LiveViewSnapshot, force: Bool) {
        if force { changed(snapshot().presentation?.status.glyph == .paused) }
    }

    func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool) {}
}
