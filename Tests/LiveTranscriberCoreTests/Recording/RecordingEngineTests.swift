import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// A whole recording through the core engine with scripted audio, a scripted recognizer, an
/// in-memory store, a memory writer and a manual clock: milliseconds of real time.
@Suite("Recording engine")
struct RecordingEngineTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let mono16k = AudioFormat(sampleRate: 16_000, channels: 1)

    static func segment(_ text: String, _ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: text, startSeconds: start, endSeconds: end)
    }

    /// Everything one test needs, wired like a front end wires its adapters.
    final class Harness {
        let clock = ManualClock(start: RecordingEngineTests.t0)
        let store = InMemoryRecordingStore()
        let activity = RecordingActivityClient()
        let recognizer: ScriptedRecognizer
        var writers: [MemoryAudioFileWriter] = []
        var events: [RecordingEngineEvent] = []
        /// For each final shown, whether the journal already held it.
        var journaledBeforeShown: [Bool] = []
        var engine: RecordingEngine<InMemoryRecordingStore>!

        init(recognizer: ScriptedRecognizer, settings: RecordingEngineSettings = .init(language: "en-US", name: "Standup", tags: ["work"]),
             sourceFormat: AudioFormat = RecordingEngineTests.mono16k, writerFailsAfterFrames: Int? = nil) {
            self.recognizer = recognizer
            let services = RecordingEngineServices(
                store: store,
                makeRecognizer: { [recognizer] _ in recognizer },
                makeResampler: { _, _, _ in preconditionFailure("no resampling in these tests") },
                makeWriter: { [unowned self] _, format, _ in
                    let writer = MemoryAudioFileWriter(format: format, failAfterFrames: writerFailsAfterFrames)
                    writers.append(writer)
                    return writer
                },
                activity: activity, clock: clock)
            engine = RecordingEngine(sourceFormat: sourceFormat, settings: settings, services: services) { [unowned self] event in
                events.append(event)
                if case .finalAdded(let segment) = event, let id = engine.recordingID {
                    journaledBeforeShown.append(store.journal(of: id)?.last == segment)
                }
            }
        }

        /// Feeds `seconds` of live audio in 100 ms blocks, the clock moving with it.
        func feed(seconds: Double) throws {
            for _ in 0..<Int((seconds * 10).rounded()) {
                try engine.receive(AudioBuffer(samples: [Float](repeating: 0.25, count: 1_600), channels: 1))
                clock.advance(by: 0.1)
            }
        }
    }

    static let script: [ScriptedRecognizer.Cue] = [
        .init(atSeconds: 1.0, [.interim("good")]),
        .init(atSeconds: 1.5, [.interim("good morning")]),
        .init(atSeconds: 2.0, [.final(segment("good morning", 0.4, 1.9))]),
        .init(atSeconds: 3.0, [.interim("the plan")]),
        .init(atSeconds: 4.0, [.final(segment("the plan is simple", 2.5, 3.8))]),
        .init(atSeconds: 6.5, [.final(segment("ship on friday", 5.1, 6.3))]),
    ]

    @Test("a language identified under auto reaches the Live Activity (and the cards drawn from it) with the first line, and is the one saved (trial 6: German speech showed 'en-US' to the end, saved as 'de')")
    func identifiedLanguageIsShown() throws {
        let recognizer = ScriptedRecognizer(language: "en-US", identifies: (atSeconds: 0.5, language: "de"), cues: [
            .init(atSeconds: 1.0, [.interim("guten")]),
            .init(atSeconds: 2.0, [.final(Self.segment("guten Tag", 0.4, 1.9))]),
        ])
        let harness = Harness(recognizer: recognizer, settings: .init(language: "auto", name: "Besprechung"))
        try harness.engine.start()
        try harness.feed(seconds: 0.6)
        #expect(harness.engine.presentation?.language == "en-US")  // nothing decoded yet
        try harness.feed(seconds: 0.5)
        #expect(harness.engine.presentation?.language == "de")  // the first interim line
        try harness.feed(seconds: 1.5)
        try harness.engine.stop()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.language == "de")
        let languages = harness.activity.calls.map { call -> String in
            switch call {
            case .request(_, let content, _, _): "request \(content.language) \(content.segmentCount)"
            case .update(_, let content, _, _): "update \(content.language) \(content.segmentCount)"
            case .end(_, let content, _, _): "end \(content?.language ?? "-")"
            }
        }
        #expect(languages == ["request en-US 0", "update de 0", "update de 1", "update de 1", "end de"])
    }

    @Test("start, interims, three finals, a 30 s pause, resume, stop and save: the recording, journal and Live Activity calls")
    func wholeRecording() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script))
        let engine = harness.engine!
        try engine.start()
        #expect(engine.phase == .recording)
        try harness.feed(seconds: 5)
        try engine.pause()
        harness.clock.advance(by: 30)
        try engine.receive(AudioBuffer(samples: [Float](repeating: 0.25, count: 1_600), channels: 1))  // dropped while paused
        engine.tick()
        try engine.resume()
        try harness.feed(seconds: 2)
        try engine.stop()
        #expect(engine.phase == .draft)
        #expect(harness.writers.count == 1 && harness.writers[0].closed)
        #expect(harness.writers[0].framesWritten == 112_000)  // 7 s: the block sent while paused is not written
        #expect(harness.recognizer.finished)

        guard case .saved(let recording, let segments) = try engine.finish(keep: true) else {
            Issue.record("the recording was not saved")
            return
        }
        #expect(engine.phase == .saved)
        #expect(recording.id == "20231114-221320-0001")
        #expect(recording.name == "Standup")
        #expect(recording.tags == ["work"])
        #expect(recording.durationSeconds == 7)
        #expect(recording.audio == AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        let expected = [Self.segment("good morning", 0.4, 1.9), Self.segment("the plan is simple", 2.5, 3.8),
                        Self.segment("ship on friday", 5.1, 6.3)]
        #expect(segments == expected)
        #expect(try harness.store.transcript(of: recording.id) == expected)
        #expect(harness.journaledBeforeShown == [true, true, true])
        #expect(harness.store.draftIDs.isEmpty)
        #expect(engine.interimResults == 3)

        // The Live Activity: one request, one update per final, pause, resume, stop, end.
        let calls = harness.activity.calls
        let kinds = calls.map { call -> String in
            switch call {
            case .request(_, let content, _, _): "request \(content.status) \(content.segmentCount)"
            case .update(_, let content, _, _): "update \(content.status) \(content.segmentCount)"
            case .end(_, let content, let dismissal, _): "end \(content?.status.rawValue ?? "-") \(dismissal)"
            }
        }
        #expect(kinds == [
            "request recording 0", "update recording 1", "update recording 2", "update paused 2",
            "update recording 2", "update recording 3", "update stopped 3", "end stopped default",
        ])
        // The timer reference is the start, then moved by the 30 s pause so the clock skips it.
        let references = calls.compactMap { call -> Date? in
            switch call {
            case .request(_, let content, _, _), .update(_, let content, _, _): content.timerReferenceDate
            case .end: nil
            }
        }
        #expect(references[0] == Self.t0)
        #expect(references[4] == Self.t0.addingTimeInterval(30))
        guard case .update(_, let paused, _, _) = calls[3], case .update(_, let stopped, _, _) = calls[6] else {
            Issue.record("unexpected call order")
            return
        }
        #expect(paused.elapsedText == "0:05")
        #expect(stopped.elapsedText == "0:07")
        guard case .update(_, let third, _, _) = calls[5] else { return }
        #expect(third.transcript == "good morning\nthe plan is simple\nship on friday")
        #expect(harness.events.contains(.interimChanged("good morning")))
        #expect(harness.events.filter { if case .phaseChanged = $0 { true } else { false } } == [
            .phaseChanged(.preparing), .phaseChanged(.recording), .phaseChanged(.paused), .phaseChanged(.recording),
            .phaseChanged(.stopping), .phaseChanged(.draft), .phaseChanged(.saved),
        ])
    }

    @Test("discard deletes the draft and ends the activity at once; nothing is saved")
    func discard() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script))
        try harness.engine.start()
        try harness.feed(seconds: 3)
        try harness.engine.stop()
        guard case .discarded(.requested) = try harness.engine.finish(keep: false) else {
            Issue.record("not discarded")
            return
        }
        #expect(try harness.store.list().isEmpty)
        #expect(harness.store.draftIDs.isEmpty)
        guard case .end(_, _, let dismissal, _) = harness.activity.calls.last else {
            Issue.record("the activity did not end")
            return
        }
        #expect(dismissal == .immediate)
    }

    @Test("the recognizer's notes (a dropped invented phrase) are saved with the recording")
    func recognizerNotesSaved() throws {
        let recognizer = ScriptedRecognizer(cues: Self.script)
        let note = InventedPhrases.note("Thank you for watching.", startSeconds: 65)
        recognizer.notes = [note]
        let harness = Harness(recognizer: recognizer)
        try harness.engine.start()
        try harness.feed(seconds: 2)
        try harness.engine.stop()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.notes == ["Dropped “Thank you for watching.” at 1:05: a phrase Whisper is known to invent, decoded with little confidence."])
        #expect(try harness.store.resolve(recording.id).notes == [note])
    }

    @Test("a draft with no audio is discarded even when keeping was asked")
    func noAudio() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: []))
        try harness.engine.start()
        try harness.engine.stop()
        guard case .discarded(.noAudio) = try harness.engine.finish(keep: true) else {
            Issue.record("not discarded")
            return
        }
        #expect(try harness.store.list().isEmpty)
    }

    @Test("less than 0.1 s of audio (1,599 frames at 16 kHz) is no audio and discarded; 0.1 s (1,600 frames) is saved",
          arguments: [(1_599, false), (1_600, true)])
    func shortestAudio(frames: Int, saved: Bool) throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: []))
        try harness.engine.start()
        try harness.engine.receive(AudioBuffer(samples: [Float](repeating: 0.25, count: frames), channels: 1))
        try harness.engine.stop()
        switch try harness.engine.finish(keep: true) {
        case .saved(let recording, _):
            #expect(saved)
            #expect(recording.durationSeconds == 0.1)
        case .discarded(let reason):
            #expect(!saved)
            #expect(reason == .noAudio)
        }
        #expect(try harness.store.list().count == (saved ? 1 : 0))
    }

    @Test("a recognizer that throws mid-way: the error is reported and the audio and finals before it are saved")
    func recognizerThrows() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script, failAtSeconds: 3.05))
        try harness.engine.start()
        #expect(throws: ScriptedRecognizer.Failure.self) { try harness.feed(seconds: 5) }
        #expect(harness.engine.captureFailure is ScriptedRecognizer.Failure)
        try harness.engine.stop()
        #expect(!harness.recognizer.finished)  // a failed recognizer is not asked to finish
        guard case .saved(let recording, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 3.1)
        #expect(segments == [Self.segment("good morning", 0.4, 1.9)])
    }

    @Test("an audio writer that fails mid-way: the error is the writer's and the frames written before it are the duration")
    func writerFails() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script), writerFailsAfterFrames: 32_000)
        try harness.engine.start()
        #expect(throws: MemoryAudioFileWriter.Failure.self) { try harness.feed(seconds: 5) }
        try harness.engine.stop()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 2)
        #expect(harness.writers[0].closed)
    }

    @Test("an audio source that fails mid-way is the front end's error: stopping still saves what arrived")
    func sourceFails() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script))
        let source = ScriptedAudioSource(format: Self.mono16k, seconds: 10, failAfterSeconds: 2.5)
        try harness.engine.start()
        #expect(throws: ScriptedAudioSource.Failure.self) {
            while let buffer = try source.read(maxFrames: 1_600) { try harness.engine.receive(buffer) }
        }
        try harness.engine.stop()
        guard case .saved(let recording, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 2.5)
        #expect(segments.map(\.text) == ["good morning"])
    }

    @Test("a store whose draft cannot be created: start fails, nothing is written and the session is idle again")
    func draftCreationFails() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script))
        harness.store.failDraftWrites = true
        #expect(throws: InMemoryWriteFailure.self) { try harness.engine.start() }
        #expect(harness.engine.phase == .idle)
        #expect(harness.writers.isEmpty)
        #expect(harness.activity.calls.isEmpty)
    }

    @Test("a journal write that fails is the recording's error, not silence; what was recorded is still saved")
    func journalFails() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: Self.script))
        try harness.engine.start()
        try harness.feed(seconds: 1.5)
        harness.store.failDraftWrites = true
        #expect(throws: InMemoryWriteFailure.self) { try harness.feed(seconds: 1) }
        harness.store.failDraftWrites = false
        try harness.engine.stop()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 2)
        #expect(harness.engine.captureFailure is InMemoryWriteFailure)
    }

    @Test("events that do not apply are refused with the session's error and change nothing")
    func rejectedEvents() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: []))
        #expect(throws: RecordingSessionError(event: .pause, phase: .idle)) { try harness.engine.pause() }
        #expect(throws: RecordingSessionError(event: .save, phase: .idle)) { try harness.engine.finish(keep: true) }
        try harness.engine.start()
        #expect(throws: RecordingSessionError(event: .changeLanguage, phase: .recording)) { try harness.engine.changeLanguage("de-DE") }
        #expect(harness.engine.phase == .recording)
    }

    @Test("the pipeline feeds the recognizer blocks of the size and encoding it asks for, whatever the source's rate and channels")
    func recognizerInputFormat() throws {
        let recognizer = ScriptedRecognizer(
            inputFormat: RecognizerInputFormat(sampleRate: 16_000, encoding: .float32, blockSamples: 8_000), cues: [])
        let harness = Harness(recognizer: recognizer, sourceFormat: AudioFormat(sampleRate: 16_000, channels: 2))
        try harness.engine.start()
        for _ in 0..<12 {
            try harness.engine.receive(AudioBuffer(samples: [Float](repeating: 0.1, count: 3_200), channels: 2))
        }
        try harness.engine.stop()
        #expect(recognizer.blockSizes == [8_000, 8_000, 3_200])
        #expect(harness.writers[0].format == AudioFormat(sampleRate: 16_000, channels: 2))
        #expect(harness.writers[0].framesWritten == 19_200)
    }

    @Test("the audio file's header is rewritten every half second of the clock, not every block")
    func headerUpdates() throws {
        let harness = Harness(recognizer: ScriptedRecognizer(cues: []))
        try harness.engine.start()
        try harness.feed(seconds: 3)
        #expect(harness.writers[0].headerUpdates == 5)  // at 0.5, 1.0, 1.5, 2.0 and 2.5 s
    }
}
