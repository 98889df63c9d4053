import LiveTranscriberCore
import Testing

@Suite("Recording phases as screens use them")
struct RecordingPhaseTests {
    @Test("the language is locked and no recording starts while one holds the microphone", arguments: [
        (RecordingSession.Phase.idle, false, true),
        (.preparing, true, false),
        (.recording, true, false),
        (.paused, true, false),
        (.stopping, true, false),
        (.draft, false, false),
        (.saved, false, true),
        (.discarded, false, true),
    ])
    func phases(phase: RecordingSession.Phase, inProgress: Bool, canStart: Bool) {
        #expect(phase.isRecordingInProgress == inProgress)
        #expect(phase.allowsLanguageChange == !inProgress)
        #expect(phase.canStartRecording == canStart)
    }

    @Test("the session itself agrees: it accepts a language change exactly when its phase allows one")
    func agreesWithSession() {
        var session = RecordingSession(language: "en-US")
        #expect(session.canChangeLanguage == session.phase.allowsLanguageChange)
        _ = session.start()
        #expect(session.canChangeLanguage == session.phase.allowsLanguageChange)
        _ = session.prepared()
        #expect(session.canChangeLanguage == session.phase.allowsLanguageChange)
        _ = session.pause()
        #expect(session.canChangeLanguage == session.phase.allowsLanguageChange)
        _ = session.stop()
        _ = session.captureFinished()
        #expect(session.phase == .draft)
        #expect(session.canChangeLanguage == session.phase.allowsLanguageChange)
    }
}
