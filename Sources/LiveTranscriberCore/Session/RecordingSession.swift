import Foundation

/// The life of one recording, from the record button to a saved or discarded draft.
///
/// A value type in the swift-nio style: each event is a `mutating func` that returns the actions a
/// driver performs (open the microphone, create the draft, save it). It does no I/O and never
/// traps: an event that makes no sense in the current phase returns `.rejected` and changes nothing.
///
/// ```
/// idle -start-> preparing -prepared-> recording <-pause/resume-> paused
///                 |  preparationFailed -> idle      |  stop (from recording or paused)
///                 |  cancel -> idle                 v
///                 |                              stopping -captureFinished-> draft
///                                                                     save -> saved
///                                                                     discard -> discarded
/// ```
/// The language can be changed only when idle or in the draft (to re-transcribe before saving);
/// it is locked while preparing, recording, paused and stopping.
///
/// ```swift
/// var session = RecordingSession(language: "en-US")
/// for action in session.start() { driver.perform(action) }  // [.prepare(language: "en-US")]
/// ```
public struct RecordingSession: Sendable, Equatable {
    /// Where the session is, as views show it.
    public enum Phase: String, Sendable, Equatable, CaseIterable {
        case idle, preparing, recording, paused, stopping, draft, saved, discarded
    }

    /// What the driver must do after an event.
    public enum Action: Sendable, Equatable {
        /// Open the audio source and create the draft for `language`; then report `prepared()` or `preparationFailed(_:)`.
        case prepare(language: String)
        /// Start feeding audio to the draft writer and the recognizer.
        case startCapture
        /// Stop feeding audio; keep the source and draft open.
        case pauseCapture
        /// Feed audio again.
        case resumeCapture
        /// Stop the source, finish the recognizer, flush the draft; then report `captureFinished()`.
        case finishCapture
        /// Close whatever `prepare` opened, without a draft to keep.
        case releaseResources
        /// Show the draft so the user can name, tag, save or discard it.
        case presentDraft
        /// Save the draft into the library.
        case saveDraft(name: String?, tags: [String])
        /// Delete the draft and its audio.
        case discardDraft
        /// Use `language` for the next recognition (idle) or re-transcribe the draft (draft).
        case applyLanguage(String)
        /// Tell the user why preparing failed.
        case reportFailure(String)
        /// The event does not apply in this phase; nothing changed.
        case rejected(RecordingSessionError)
    }

    /// The current phase: the session's whole state (no phase carries data of its own).
    public private(set) var phase: Phase = .idle
    /// The transcription language, a BCP 47 tag such as "en-US".
    public private(set) var language: String

    public init(language: String) {
        self.language = language
    }

    /// True when `changeLanguage(_:)` would be accepted.
    public var canChangeLanguage: Bool { phase == .idle || phase == .draft }

    /// The user pressed record.
    public mutating func start() -> [Action] {
        guard phase == .idle else { return reject(.start) }
        phase = .preparing
        return [.prepare(language: language)]
    }

    /// The audio source and the draft are ready.
    public mutating func prepared() -> [Action] {
        guard phase == .preparing else { return reject(.prepared) }
        phase = .recording
        return [.startCapture]
    }

    /// Opening the source or creating the draft failed: back to idle.
    public mutating func preparationFailed(_ reason: String) -> [Action] {
        guard phase == .preparing else { return reject(.preparationFailed) }
        phase = .idle
        return [.releaseResources, .reportFailure(reason)]
    }

    /// The user gave up while the source was still opening: back to idle.
    public mutating func cancel() -> [Action] {
        guard phase == .preparing else { return reject(.cancel) }
        phase = .idle
        return [.releaseResources]
    }

    /// The user paused.
    public mutating func pause() -> [Action] {
        guard phase == .recording else { return reject(.pause) }
        phase = .paused
        return [.pauseCapture]
    }

    /// The user resumed after a pause.
    public mutating func resume() -> [Action] {
        guard phase == .paused else { return reject(.resume) }
        phase = .recording
        return [.resumeCapture]
    }

    /// The user pressed stop (while recording or paused), or the input ended.
    public mutating func stop() -> [Action] {
        guard phase == .recording || phase == .paused else { return reject(.stop) }
        phase = .stopping
        return [.finishCapture]
    }

    /// The source is closed, the recognizer finished and the draft flushed.
    public mutating func captureFinished() -> [Action] {
        guard phase == .stopping else { return reject(.captureFinished) }
        phase = .draft
        return [.presentDraft]
    }

    /// The user saved the draft, optionally naming and tagging it.
    public mutating func save(name: String? = nil, tags: [String] = []) -> [Action] {
        guard phase == .draft else { return reject(.save) }
        phase = .saved
        return [.saveDraft(name: name, tags: tags)]
    }

    /// The user discarded the draft.
    public mutating func discard() -> [Action] {
        guard phase == .draft else { return reject(.discard) }
        phase = .discarded
        return [.discardDraft]
    }

    /// The user picked another language. Locked while preparing, recording, paused and stopping.
    public mutating func changeLanguage(_ newLanguage: String) -> [Action] {
        guard canChangeLanguage else { return reject(.changeLanguage) }
        guard newLanguage != language else { return [] }
        language = newLanguage
        return [.applyLanguage(newLanguage)]
    }

    private func reject(_ event: RecordingSessionError.Event) -> [Action] {
        [.rejected(RecordingSessionError(event: event, phase: phase))]
    }
}

/// An event that does not apply in the session's current phase.
public struct RecordingSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session's events, by name.
    public enum Event: String, Sendable, Equatable, CaseIterable {
        case start, prepared, preparationFailed, cancel, pause, resume, stop, captureFinished, save, discard, changeLanguage
    }

    public var event: Event
    public var phase: RecordingSession.Phase

    public init(event: Event, phase: RecordingSession.Phase) {
        self.event = event
        self.phase = phase
    }

    public var description: String {
        if event == .changeLanguage {
            return "the language cannot be changed while \(phase.rawValue); stop the recording first."
        }
        return "'\(event.rawValue)' does not apply while the recording is \(phase.rawValue)."
    }
}
