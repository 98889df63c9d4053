import Foundation

extension RecordingSession.Phase {
    /// True while a recording holds the microphone or is about to (preparing, recording, paused,
    /// stopping): the language setting is locked and a new recording cannot start.
    public var isRecordingInProgress: Bool {
        switch self {
        case .preparing, .recording, .paused, .stopping: true
        case .idle, .draft, .saved, .discarded: false
        }
    }

    /// True when a new recording may start: nothing is in progress and no draft waits to be
    /// saved or discarded.
    public var canStartRecording: Bool {
        switch self {
        case .idle, .saved, .discarded: true
        case .preparing, .recording, .paused, .stopping, .draft: false
        }
    }

    /// True for the recording's outcome, saved or discarded: nothing more is recorded, and the
    /// engine reports it only once the store has saved or discarded the draft.
    public var isOutcome: Bool { self == .saved || self == .discarded }

    /// True when the language setting may change: nothing is recording. In the draft it may,
    /// and the engine transcribes the draft again (`RecordingEngine.changeLanguage`).
    public var allowsLanguageChange: Bool { !isRecordingInProgress }
}
