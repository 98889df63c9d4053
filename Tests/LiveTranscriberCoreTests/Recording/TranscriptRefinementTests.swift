import LiveTranscriberCore
import Testing

@Suite("The second pass over a saved live recording")
struct TranscriptRefinementTests {
    @Test("whisper's recordings are refined; pocketsphinx's, --no-refine and no audio keep the live transcript",
          arguments: [
              (SpeechEngineKind.whisper, false, 24.7, false, TranscriptRefinement.Decision.refine),
              (.whisper, false, 0.1, false, .refine),
              (.pocketsphinx, false, 24.7, false, .keepLive),
              (.whisper, true, 24.7, false, .keepLive),
              (.whisper, false, 0.099, false, .keepLive),
              (.whisper, false, 24.7, true, .keepLiveAfterSignal),
              (.pocketsphinx, false, 24.7, true, .keepLive),
              (.whisper, true, 24.7, true, .keepLive),
          ])
    func decision(engine: SpeechEngineKind, turnedOff: Bool, seconds: Double, signal: Bool, expected: TranscriptRefinement.Decision) {
        #expect(TranscriptRefinement.decision(engine: engine, turnedOff: turnedOff, audioSeconds: seconds, stoppedByTermination: signal) == expected)
    }

    @Test("the lines say what was saved and how to undo or redo it")
    func lines() {
        #expect(TranscriptRefinement.doneLine(segments: 5, recordingID: "20261203-171018-3d9c")
            == "Refined the transcript: 5 segments; the live one is kept ('livetranscriber retranscribe 20261203-171018-3d9c --restore' puts it back).")
        #expect(TranscriptRefinement.doneLine(segments: 1, recordingID: "r").hasPrefix("Refined the transcript: 1 segment; "))
        #expect(TranscriptRefinement.skippedNote(recordingID: "r", stopped: true)
            == "the transcript was not refined; the live one is saved. 'livetranscriber retranscribe r' refines it.")
        #expect(TranscriptRefinement.skippedNote(recordingID: "r", stopped: false)
            == "the transcript was not refined (the recording was ended by a signal); the live one is saved. 'livetranscriber retranscribe r' refines it.")
    }
}
