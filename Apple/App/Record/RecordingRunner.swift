import Foundation
import LiveTranscriberCore

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

/// Runs a core `RecordingEngine` off the main thread: every engine call on one serial queue (the
/// engine wants one thread at a time), the microphone read on its own queue, and a timer that
/// lets the engine's time rules run while no audio flows (paused).
final class RecordingRunner<Store: RecordingDraftStore & SendableMetatype>: RecordingRunning, @unchecked Sendable {
    // @unchecked: `engine` is touched only on `queue`; `source` is itself thread-safe.

    private let queue = DispatchQueue(label: "app.livetranscriber.engine")
    private let readerQueue = DispatchQueue(label: "app.livetranscriber.capture-reader", qos: .userInitiated)
    private let engine: RecordingEngine<Store>
    private let source: any StoppableAudioSource
    private let sourceEnded: @Sendable () -> Void
    private let timer: DispatchSourceTimer
    private let observer: @Sendable (RecordingEngineEvent) -> Void

    init(store: Store, request: RecordingRequest, activity: any ActivityClient, clock: any WallClock) throws {
        let recognizer = request.recognizer
        let services = RecordingEngineServices(
            store: store,
            makeRecognizer: { _ in recognizer },
            makeResampler: { from, to, channels in
                guard channels == 1 else { throw ResamplerError.unsupported(fromRate: from, toRate: to) }
                return try AVAudioConverterResampler(fromRate: from, toRate: to)
            },
            makeWriter: { url, format, fileFormat in try AVAudioFileWriter(url: url, format: format, fileFormat: fileFormat) },
            activity: request.activity ?? activity,
            clock: clock,
            encoder: AVAudioFileEncoder())  // M4A: the WAV draft is encoded on save
        engine = RecordingEngine(
            sourceFormat: request.source.format, settings: request.settings, services: services,
            observer: request.observer)
        source = request.source
        observer = request.observer
        sourceEnded = request.sourceEnded
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    var recordingID: String? { queue.sync { engine.recordingID } }

    func start() throws {
        try queue.sync { try engine.start() }
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        // Its own queue, because `read` waits for audio and must not hold the engine's queue.
        readerQueue.async { [weak self] in self?.readUntilStopped() }
    }

    func pause() throws { try queue.sync { try engine.pause() } }

    func resume() throws { try queue.sync { try engine.resume() } }

    func stop() throws {
        source.stop()
        timer.cancel()
        try queue.sync { try engine.stop() }
    }

    func finish(keep: Bool, name: String?, tags: [String]?, location: RecordingLocation?) throws -> RecordingResult {
        try queue.sync {
            switch try engine.finish(keep: keep, name: name, tags: tags, location: location) {
            case .saved(let recording, _): .saved(recording)
            case .discarded: .discarded
            }
        }
    }

    /// Runs on `queue` (the timer's queue).
    private func tick() { engine.tick() }

    /// Pulls audio until the source is stopped; a failure stops reading (the engine keeps it as
    /// its capture failure and `stop()` still saves what came before).
    private func readUntilStopped() {
        do {
            while let buffer = try source.read(maxFrames: 4_800) {
                try queue.sync { try engine.receive(buffer) }
            }
        } catch {
            source.stop()
        }
        sourceEnded()
    }
}
