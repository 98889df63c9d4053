import AVFoundation
import Foundation
import LiveTranscriberCore
import Observation

/// The Record tab's state: one recording at a time through the core's `RecordingEngine` (in a
/// `RecordingRunner`), its live transcript, timer and level, and the save sheet.
///
/// Decides nothing itself: phases come from the engine's `RecordingSession`, what an interruption
/// does from `CaptureInterruptionPolicy`, names and tags from `RecordingName` and `RecordingTags`, the transcript's
/// lines from `TranscriptLines`, haptics from `HapticPolicy`.
@MainActor
@Observable
final class RecordModel {
    private(set) var phase: RecordingSession.Phase = .idle
    /// The live transcript, newest first, the interim line on top.
    private(set) var lines: [TranscriptLine] = []
    /// Seconds recorded, pauses excluded.
    private(set) var seconds: Double = 0
    /// RMS level of the latest audio, 0 to about 0.7.
    private(set) var level: Float = 0

    /// The level meter's filled fraction (the core's decibel scale).
    var meterFraction: Double { Double(LevelMeter.fraction(rms: level)) }
    /// Why the last action failed, shown under the controls.
    private(set) var failure: String?
    /// The save sheet is up (after stop).
    var isShowingSaveSheet = false
    /// The analyzer's audio format of the current or last recording, for Settings' diagnostics.
    private(set) var analyzerFormat: String?

    private var transcript = TranscriptAssembler()
    private var runner: (any RecordingRunning)?
    private let dependencies: AppDependencies
    private let haptics: HapticCoordinator
    private let settings: SettingsModel
    private let saved: @MainActor () -> Void

    init(
        dependencies: AppDependencies, haptics: HapticCoordinator, settings: SettingsModel,
        saved: @escaping @MainActor () -> Void
    ) {
        self.dependencies = dependencies
        self.haptics = haptics
        self.settings = settings
        self.saved = saved
    }

    /// The recording in progress, for deep links and the stop intent (kept here so reading it
    /// never waits for the engine's queue).
    private(set) var recordingID: String?

    /// The status words and dot while recording or paused.
    var status: ActivityStatusStyle? {
        switch phase {
        case .recording: ActivityStatusStyle(.recording)
        case .paused: ActivityStatusStyle(.paused)
        default: nil
        }
    }

    /// The timer's text ("1:05"): the core's clock format.
    var timerText: String { ElapsedTimeFormat.clock(seconds) }

    /// Asks for the microphone, prepares the on-device recognizer, opens the microphone and starts.
    func start() async {
        guard phase.canStartRecording else {
            haptics.occurred(.blocked)
            return
        }
        failure = nil
        guard await AVAudioApplication.requestRecordPermission() else {
            fail("LiveTranscriber needs the microphone. Allow it in Settings › Privacy & Security › Microphone.")
            return
        }
        do {
            let opened = try settings.openLibrary()
            let recognizer = try await SpeechAnalyzerRecognizer.make(language: settings.language)
            analyzerFormat = recognizer.analyzerFormatDescription
            let source = try CaptureAudioSource()
            source.onEvent = { [weak self] event in
                Task { @MainActor in self?.captureEvent(event) }
            }
            let request = RecordingRequest(
                settings: RecordingEngineSettings(language: settings.language, fileFormat: settings.fileFormat),
                source: source, recognizer: recognizer,
                observer: { [weak self] event in Task { @MainActor in self?.engineEvent(event) } })
            let runner = try opened.makeRunner(request)
            transcript = TranscriptAssembler()
            lines = []
            seconds = 0
            try runner.start()
            self.runner = runner
            recordingID = runner.recordingID
            haptics.occurred(.recordingStarted)
        } catch {
            fail(String(describing: error))
        }
    }

    func pause() {
        Task { await act(.recordingPaused) { try $0.pause() } }
    }

    func resume() {
        Task { await act(.recordingResumed) { try $0.resume() } }
    }

    /// Stops and shows the save sheet.
    func stop() {
        Task {
            if await act(.recordingStopped, { try $0.stop() }) { isShowingSaveSheet = true }
        }
    }

    /// The stop link and the Live Activity's stop button: stop and save with the default name.
    func stopAndSave() {
        guard let runner else { return }
        isShowingSaveSheet = false
        Task {
            if phase == .recording || phase == .paused {
                guard await act(.recordingStopped, { try $0.stop() }) else { return }
            }
            await finish(runner, keep: true, name: nil, tags: nil, location: nil)
        }
    }

    /// Saves from the sheet.
    /// - Throws: `LibraryError.invalid` for a name or tag the library cannot store
    ///   (`RecordingName`, `RecordingTags`); the sheet says why and stays up.
    func save(name: String, tags: String, location: RecordingLocation?) throws {
        let checkedName = try RecordingName.validatedUnlessBlank(name)
        let checkedTags = try RecordingTags.normalized([tags])
        guard let runner else { return }
        isShowingSaveSheet = false
        Task { await finish(runner, keep: true, name: checkedName, tags: checkedTags, location: location) }
    }

    /// Deletes the draft.
    func discard() {
        guard let runner else { return }
        isShowingSaveSheet = false
        Task { await finish(runner, keep: false, name: nil, tags: nil, location: nil) }
    }

    private func finish(
        _ runner: any RecordingRunning, keep: Bool, name: String?, tags: [String]?, location: RecordingLocation?
    ) async {
        let result = await runBlocking { try runner.finish(keep: keep, name: name, tags: tags, location: location) }
        switch result {
        case .success(.saved):
            haptics.occurred(.recordingSaved)
            saved()
        case .success(.discarded):
            haptics.occurred(.recordingDiscarded)
        case .failure(let error):
            fail(String(describing: error))
            return
        }
        self.runner = nil
        recordingID = nil
        transcript = TranscriptAssembler()
        lines = []
    }

    /// Runs `action` on the recording off the main actor (stopping waits for the recognizer to
    /// finalize); true when it succeeded.
    @discardableResult
    private func act(_ event: HapticEvent, _ action: @escaping @Sendable (any RecordingRunning) throws -> Void) async -> Bool {
        guard let runner else { return false }
        let result = await runBlocking { try action(runner) }
        switch result {
        case .success:
            haptics.occurred(event)
            return true
        case .failure(let error):
            fail(String(describing: error))
            return false
        }
    }

    private func fail(_ text: String) {
        failure = text
        haptics.occurred(.failure)
    }

    private func captureEvent(_ event: CaptureEvent) {
        if CaptureInterruptionPolicy.decide(event, phase: phase) == .pause { pause() }
    }

    private func engineEvent(_ event: RecordingEngineEvent) {
        switch event {
        case .phaseChanged(let newPhase):
            phase = newPhase
        case .interimChanged(let text):
            _ = transcript.apply(.interim(text ?? ""))
            lines = TranscriptLines.live(transcript)
        case .finalAdded(let segment):
            _ = transcript.apply(.final(segment))
            lines = TranscriptLines.live(transcript)
        case .audioReceived(let seconds, let level):
            self.seconds = seconds
            self.level = level
        }
    }
}
