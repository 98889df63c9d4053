import LiveTranscriberCore
import Testing

@Suite("RecordingSession")
struct RecordingSessionTests {
    typealias Phase = RecordingSession.Phase
    typealias Event = RecordingSessionError.Event

    /// A session driven into `phase` through the shortest path of valid events.
    static func session(in phase: Phase) -> RecordingSession {
        var session = RecordingSession(language: "en-US")
        let path: [(inout RecordingSession) -> [RecordingSession.Action]] = switch phase {
        case .idle: []
        case .preparing: [{ $0.start() }]
        case .recording: [{ $0.start() }, { $0.prepared() }]
        case .paused: [{ $0.start() }, { $0.prepared() }, { $0.pause() }]
        case .stopping: [{ $0.start() }, { $0.prepared() }, { $0.stop() }]
        case .draft: [{ $0.start() }, { $0.prepared() }, { $0.stop() }, { $0.captureFinished() }]
        case .saved: [{ $0.start() }, { $0.prepared() }, { $0.stop() }, { $0.captureFinished() }, { $0.save() }]
        case .discarded: [{ $0.start() }, { $0.prepared() }, { $0.stop() }, { $0.captureFinished() }, { $0.discard() }]
        }
        for step in path { _ = step(&session) }
        return session
    }

    static func send(_ event: Event, to session: inout RecordingSession) -> [RecordingSession.Action] {
        switch event {
        case .start: session.start()
        case .prepared: session.prepared()
        case .preparationFailed: session.preparationFailed("no microphone")
        case .cancel: session.cancel()
        case .pause: session.pause()
        case .resume: session.resume()
        case .stop: session.stop()
        case .captureFinished: session.captureFinished()
        case .save: session.save(name: "Standup", tags: ["work"])
        case .discard: session.discard()
        case .changeLanguage: session.changeLanguage("fr-FR")
        }
    }

    /// Every valid transition: (from, event) -> (to, actions).
    static let valid: [Phase: [Event: (Phase, [RecordingSession.Action])]] = [
        .idle: [
            .start: (.preparing, [.prepare(language: "en-US")]),
            .changeLanguage: (.idle, [.applyLanguage("fr-FR")]),
        ],
        .preparing: [
            .prepared: (.recording, [.startCapture]),
            .preparationFailed: (.idle, [.releaseResources, .reportFailure("no microphone")]),
            .cancel: (.idle, [.releaseResources]),
        ],
        .recording: [
            .pause: (.paused, [.pauseCapture]),
            .stop: (.stopping, [.finishCapture]),
        ],
        .paused: [
            .resume: (.recording, [.resumeCapture]),
            .stop: (.stopping, [.finishCapture]),
        ],
        .stopping: [
            .captureFinished: (.draft, [.presentDraft]),
        ],
        .draft: [
            .save: (.saved, [.saveDraft(name: "Standup", tags: ["work"])]),
            .discard: (.discarded, [.discardDraft]),
            .changeLanguage: (.draft, [.applyLanguage("fr-FR")]),
        ],
        .saved: [:],
        .discarded: [:],
    ]

    static let allPairs: [(Phase, Event)] = Phase.allCases.flatMap { phase in Event.allCases.map { (phase, $0) } }

    @Test("every event in every phase moves to the expected phase with the expected actions, or is rejected without change", arguments: allPairs)
    func transition(phase: Phase, event: Event) {
        var session = Self.session(in: phase)
        #expect(session.phase == phase)
        let actions = Self.send(event, to: &session)
        if let (next, expected) = Self.valid[phase]?[event] {
            #expect(session.phase == next)
            #expect(actions == expected)
        } else {
            #expect(session.phase == phase)
            #expect(actions == [.rejected(RecordingSessionError(event: event, phase: phase))])
            #expect(session.language == "en-US")
        }
    }

    @Test("the language is locked while preparing, recording, paused and stopping", arguments: Phase.allCases)
    func languageLock(phase: Phase) {
        let session = Self.session(in: phase)
        #expect(session.canChangeLanguage == (phase == .idle || phase == .draft))
    }

    @Test("a rejected language change explains itself in a sentence")
    func lockedLanguageMessage() {
        var session = Self.session(in: .recording)
        let actions = session.changeLanguage("de-DE")
        #expect(actions == [.rejected(RecordingSessionError(event: .changeLanguage, phase: .recording))])
        #expect(String(describing: RecordingSessionError(event: .changeLanguage, phase: .recording))
            == "the language cannot be changed while recording; stop the recording first.")
        #expect(String(describing: RecordingSessionError(event: .pause, phase: .idle))
            == "'pause' does not apply while the recording is idle.")
    }

    @Test("the changed language is the one the next recording prepares with")
    func languageCarriesIntoPrepare() {
        var session = RecordingSession(language: "en-US")
        #expect(session.changeLanguage("ja-JP") == [.applyLanguage("ja-JP")])
        #expect(session.changeLanguage("ja-JP") == [])
        #expect(session.start() == [.prepare(language: "ja-JP")])
        #expect(session.language == "ja-JP")
    }

    @Test("pause and resume can repeat, and stop works from paused")
    func pauseResumeCycle() {
        var session = Self.session(in: .recording)
        for _ in 0..<3 {
            #expect(session.pause() == [.pauseCapture])
            #expect(session.resume() == [.resumeCapture])
        }
        #expect(session.pause() == [.pauseCapture])
        #expect(session.stop() == [.finishCapture])
        #expect(session.captureFinished() == [.presentDraft])
        #expect(session.save() == [.saveDraft(name: nil, tags: [])])
        #expect(session.phase == .saved)
    }

    @Test("a failed preparation returns to idle and a new start works")
    func retryAfterFailure() {
        var session = Self.session(in: .preparing)
        _ = session.preparationFailed("device busy")
        #expect(session.phase == .idle)
        #expect(session.start() == [.prepare(language: "en-US")])
    }
}
