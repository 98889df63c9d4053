import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// Transcription that runs behind the audio (issue 23 items 7, 8, 10, 11): what a stop abandons,
/// what the saved recording holds, what progress counts, and when a file input waits.
@Suite("Pending transcription: stops, progress and reading ahead")
struct PendingTranscriptionTests {
    typealias Harness = RecordingEngineTests.Harness
    static func segment(_ text: String, _ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: text, startSeconds: start, endSeconds: end)
    }

    /// Four finals, decoded 6 s behind the audio.
    static func laggingRecognizer(failAtSeconds: Double? = nil) -> ScriptedRecognizer {
        ScriptedRecognizer(cues: [
            .init(atSeconds: 2, [.final(segment("one", 0.5, 1.8))]),
            .init(atSeconds: 4, [.final(segment("two", 2.5, 3.8))]),
            .init(atSeconds: 6, [.final(segment("three", 4.5, 5.8))]),
            .init(atSeconds: 7.5, [.final(segment("four", 6.2, 7.4))]),
        ], failAtSeconds: failAtSeconds, lagSeconds: 6)
    }

    @Test("a stop request leaves pending decodes the grace (0.5 s of the clock), then abandons the rest: all audio saved, the finals decoded, the rest named")
    func stopAbandonsAfterTheGrace() throws {
        let harness = Harness(recognizer: Self.laggingRecognizer())
        try harness.engine.start()
        try harness.feed(seconds: 8)
        #expect(harness.engine.secondsTranscribed == 2)  // progress counts decoded audio, not the 8 s read
        // Each check of the stop request is 0.3 s after the one before: asked at +0.3 as the
        // stop begins, "two" finishes by the check at +0.6, and the check at +0.9 is past the grace.
        var checks = 0
        try harness.engine.stop(stopRequested: { [clock = harness.clock] in
            checks += 1
            clock.advance(by: 0.3)
            return true
        })
        #expect(checks == 3)
        #expect(harness.engine.untranscribedAudio == UntranscribedAudio(fromSeconds: 4, toSeconds: 8))
        guard case .saved(let recording, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 8)
        #expect(segments.map(\.text) == ["one", "two"])
        #expect(UntranscribedAudio(fromSeconds: 4, toSeconds: 8).note(recordingID: recording.id)
            == "the last 0:04 of audio (from 0:04) has no transcript: the recording stopped before it was transcribed; "
            + "run 'livetranscriber retranscribe \(recording.id)' to transcribe it all")
    }

    @Test("under a second of untranscribed audio is said in tenths, never as 0:00", arguments: [
        (7.0, 7.43, "the last 0.4 s of audio (from 0:07)"), (7.0, 7.02, "the last 0.1 s of audio (from 0:07)"),
        (6.5, 7.45, "the last 0.9 s of audio (from 0:06)"), (6.0, 7.0, "the last 0:01 of audio (from 0:06)"),
    ])
    func shortUntranscribedNote(from: Double, to: Double, start: String) {
        #expect(UntranscribedAudio(fromSeconds: from, toSeconds: to).note(recordingID: "r1")
            == start + " has no transcript: the recording stopped before it was transcribed; run 'livetranscriber retranscribe r1' to transcribe it all")
    }

    @Test("the end of the input is not a stop: every pending decode is waited for, progress moves as each one ends and reaches the end")
    func endOfInputTranscribesAll() throws {
        let harness = Harness(recognizer: Self.laggingRecognizer())
        try harness.engine.start()
        try harness.feed(seconds: 8)
        var progress: [Double] = []
        try harness.engine.stop(stopRequested: { [engine = harness.engine!] in
            progress.append(engine.secondsTranscribed)
            return false
        })
        // Asked as the stop begins and before each of the three decodes still pending (a front end
        // draws progress there): each check sees the decodes finished before it, so a bar moves.
        #expect(progress == [2, 2, 4, 6])
        #expect(harness.engine.untranscribedAudio == nil)
        #expect(harness.engine.secondsTranscribed == 8)
        guard case .saved(_, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(segments.map(\.text) == ["one", "two", "three", "four"])
    }

    @Test("while the last decodes end, the Live Activity already shows the recording stopped at its length (trial 6: the card said 'Recording' with a running clock for the 30 s of a file still being decoded)")
    func stoppedWhileDecodesEnd() throws {
        let harness = Harness(recognizer: Self.laggingRecognizer())
        try harness.engine.start()
        try harness.feed(seconds: 8)
        var shown: [String] = []
        try harness.engine.stop(stopRequested: { [engine = harness.engine!] in
            harness.clock.advance(by: 1)  // the decodes take wall time; the clock shown does not move
            if let presentation = engine.presentation {
                shown.append("\(presentation.status.text) \(presentation.timer.text(elapsedSeconds: 0)) \(presentation.segmentCount)")
            }
            return false
        })
        #expect(shown == ["Stopped 0:08 1", "Stopped 0:08 1", "Stopped 0:08 2", "Stopped 0:08 3"])  // each line as its decode ends
        let kinds = harness.activity.calls.map { call -> String in
            switch call {
            case .request(_, let content, _, _): "request \(content.status) \(content.segmentCount)"
            case .update(_, let content, _, _): "update \(content.status) \(content.segmentCount) \(content.elapsedText ?? "-")"
            case .end(_, let content, _, _): "end \(content?.status.rawValue ?? "-")"
            }
        }
        #expect(kinds == ["request recording 0", "update recording 1 -", "update stopped 1 0:08", "update stopped 2 0:08",
                          "update stopped 3 0:08", "update stopped 4 0:08"])
    }

    @Test("a file input waits while more than the read-ahead limit has no transcript; each wait takes the decodes that finished")
    func readerWaitsForTheRecognizer() throws {
        var settings = RecordingEngineSettings(language: "en-US")
        settings.pendingTranscription.readAheadLimitSeconds = 3
        let harness = Harness(recognizer: Self.laggingRecognizer(), settings: settings)
        try harness.engine.start()
        try harness.feed(seconds: 2.9)
        #expect(!harness.engine.transcriptionIsBehind)  // 2.9 s behind
        try harness.feed(seconds: 5.1)
        #expect(harness.engine.transcriptionIsBehind)  // 6 s behind
        try harness.engine.awaitTranscription(upToSeconds: 0.1)
        #expect(harness.engine.secondsTranscribed == 4)
        #expect(harness.engine.transcriptionIsBehind)  // 4 s behind
        try harness.engine.awaitTranscription(upToSeconds: 0.1)
        #expect(harness.engine.secondsTranscribed == 6)
        #expect(!harness.engine.transcriptionIsBehind)  // 2 s behind
        #expect(harness.engine.transcript.finals.map(\.text) == ["one", "two", "three"])
        #expect(harness.journaledBeforeShown == [true, true, true])
    }

    @Test("a capture failure cancels the recognizer's pending decodes (joined before stop returns) and names the audio left without a transcript")
    func failureCancelsPendingDecodes() throws {
        let harness = Harness(recognizer: Self.laggingRecognizer(failAtSeconds: 9.05))
        try harness.engine.start()
        #expect(throws: ScriptedRecognizer.Failure.self) { try harness.feed(seconds: 10) }
        try harness.engine.stop()
        #expect(harness.recognizer.cancelled)
        #expect(!harness.recognizer.finished)
        #expect(harness.engine.untranscribedAudio == UntranscribedAudio(fromSeconds: 3, toSeconds: 9.1))
        guard case .saved(let recording, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("not saved")
            return
        }
        #expect(recording.durationSeconds == 9.1)
        #expect(segments.map(\.text) == ["one"])
    }

    @Test("the rule's two decisions", arguments: [
        (29.9, false), (30.0, true), (600.0, true),
    ])
    func readAheadLimit(untranscribed: Double, waits: Bool) {
        #expect(PendingTranscription().readerMustWait(untranscribedSeconds: untranscribed) == waits)
    }

    @Test("a stop abandons only after the grace; no stop request never abandons")
    func grace() {
        let rule = PendingTranscription()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(!rule.abandons(stopRequestedAt: nil, now: t0.addingTimeInterval(3_600)))
        #expect(!rule.abandons(stopRequestedAt: t0, now: t0.addingTimeInterval(0.49)))
        #expect(rule.abandons(stopRequestedAt: t0, now: t0.addingTimeInterval(0.5)))
    }
}
