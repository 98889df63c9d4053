import Foundation
import LiveTranscriberCore
import Synchronization

/// An audio source that can be told to stop: `read` then returns what is left, then nil.
protocol StoppableAudioSource: AudioSource, Sendable {
    func stop()
}

extension CaptureAudioSource: StoppableAudioSource {}

/// What the Record screen (or an import) asks a runner to record.
struct RecordingRequest {
    var settings: RecordingEngineSettings
    /// The open microphone, or an audio file being imported.
    var source: any StoppableAudioSource
    /// The prepared on-device recognizer (preparing it is asynchronous, so it happens first).
    var recognizer: any SpeechRecognizer
    /// Told of the engine's events, on the engine's queue.
    var observer: @Sendable (RecordingEngineEvent) -> Void
    /// Where the Live Activity goes; nil for the app's ActivityKit client. An import passes a
    /// client that shows nothing.
    var activity: (any ActivityClient)? = nil
    /// Called once, on the reader's queue, when the source ends by itself (the end of an imported
    /// file) rather than by `stop()`, or fails.
    var sourceEnded: @Sendable () -> Void = {}
}

/// What became of a finished recording.
enum RecordingResult {
    case saved(Recording)
    case discarded
}

/// The Record screen's handle on one recording, whatever store is behind it.
protocol RecordingRunning: AnyObject, Sendable {
    /// The recording's id (the Live Activity's `recordingID`).
    var recordingID: String? { get }
    func start() throws
    func pause() throws
    func resume() throws
    func stop() throws
    func finish(keep: Bool, name: String?, tags: [String]?, location: RecordingLocation?) throws -> RecordingResult
}

/// Runs a core `RecordingEngine` off the main thread.
///
/// The runner owns the engine, and through it the store, the recognizer and the file writer it
/// was sent: they live in a `Mutex`, so every engine call holds the lock (the engine wants one
/// thread at a time) and nothing of them leaves it but `Sendable` results. Three threads call in:
/// the microphone read on its own queue (`read` waits for audio and must not hold the lock), a
/// 0.5 s timer that lets the engine's time rules run while no audio flows (paused), and the
/// callers of `start`, `pause`, `resume`, `stop` and `finish` (the Record screen through
/// `runBlocking`, because `stop` and `finish` wait for the recognizer and the disk).
final class RecordingRunner<Store: RecordingDraftStore & SendableMetatype>: RecordingRunning {
    private let engine: Mutex<RecordingEngine<Store>>
    private let readerQueue = DispatchQueue(label: "app.livetranscriber.capture-reader", qos: .userInitiated)
    private let source: any StoppableAudioSource
    private let sourceEnded: @Sendable () -> Void
    private let timer: any DispatchSourceTimer

    /// - Parameters:
    ///   - store: the runner's own store (never the main actor's); the runner owns it from now on.
    ///   - request: what to record; the runner owns its recognizer from now on.
    init(store: sending Store, request: sending RecordingRequest, activity: any ActivityClient, clock: any WallClock) throws {
        // The Sendable parts first; the rest of the request goes into the engine.
        source = request.source
        sourceEnded = request.sourceEnded
        let sourceFormat = request.source.format
        let settings = request.settings
        let observer = request.observer
        let activity = request.activity ?? activity
        let recognizer = request.recognizer
        let services = RecordingEngineServices(
            store: store,
            makeRecognizer: { _ in recognizer },
            makeResampler: { from, to, channels in
                guard channels == 1 else { throw ResamplerError.unsupported(fromRate: from, toRate: to) }
                return try AVAudioConverterResampler(fromRate: from, toRate: to)
            },
            makeWriter: { url, format, fileFormat in try AVAudioFileWriter(url: url, format: format, fileFormat: fileFormat) },
            activity: activity,
            clock: clock,
            encoder: AVAudioFileEncoder())  // M4A: the WAV draft is encoded on save
        engine = Mutex(RecordingEngine(sourceFormat: sourceFormat, settings: settings, services: services, observer: observer))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "app.livetranscriber.engine-timer"))
    }

    var recordingID: String? { engine.withLock { $0.recordingID } }

    func start() throws {
        try engine.withLock { try $0.start() }
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        readerQueue.async { [weak self] in self?.readUntilStopped() }
    }

    func pause() throws { try engine.withLock { try $0.pause() } }

    func resume() throws { try engine.withLock { try $0.resume() } }

    func stop() throws {
        source.stop()
        timer.cancel()
        try engine.withLock { try $0.stop() }
    }

    func finish(keep: Bool, name: String?, tags: [String]?, location: RecordingLocation?) throws -> RecordingResult {
        try engine.withLock { engine in
            switch try engine.finish(keep: keep, name: name, tags: tags, location: location) {
            case .saved(let recording, _): .saved(recording)
            case .discarded: .discarded
            }
        }
    }

    private func tick() { engine.withLock { $0.tick() } }

    /// Pulls audio until the source is stopped; a failure stops reading (the engine keeps it as
    /// its capture failure and `stop()` still saves what came before).
    private func readUntilStopped() {
        do {
            while let buffer = try source.read(maxFrames: 4_800) {
                try engine.withLock { try $0.receive(buffer) }
            }
        } catch {
            source.stop()
        }
        sourceEnded()
    }
}
