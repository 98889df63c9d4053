import Foundation
import LiveTranscriberCore
import Testing

@Suite("The live event stream's encoding")
struct RecordingEventStreamTests {
    @Test("phases, interims and finals become one JSON line each, with wall and audio seconds; audio blocks only move the clock")
    func lines() {
        var stream = RecordingEventStream()
        #expect(stream.line(for: .phaseChanged(.recording), elapsedSeconds: 0.0123) ==
                #"{"audio_end":0,"audio_start":0,"elapsed":0.012,"phase":"recording","type":"phase"}"#)
        #expect(stream.line(for: .audioReceived(seconds: 2.5, level: 0.1), elapsedSeconds: 2.51) == nil)
        #expect(stream.line(for: .interimChanged("He was"), elapsedSeconds: 2.6) ==
                #"{"audio_end":2.5,"audio_start":0,"elapsed":2.6,"text":"He was","type":"interim"}"#)
        let segment = TranscriptSegment(text: "He was.", startSeconds: 0.5, endSeconds: 1.25, words: [
            WordTiming(word: "He", startSeconds: 0.5, endSeconds: 0.75), WordTiming(word: "was.", startSeconds: 0.8, endSeconds: 1.25),
        ])
        #expect(stream.line(for: .finalAdded(segment), elapsedSeconds: 2.7) ==
                #"{"audio_end":1.25,"audio_start":0.5,"elapsed":2.7,"text":"He was.","type":"final","words":[{"end":0.75,"start":0.5,"word":"He"},{"end":1.25,"start":0.8,"word":"was."}]}"#)
        _ = stream.line(for: .audioReceived(seconds: 3, level: 0), elapsedSeconds: 3)
        // An interim after a final covers the audio after it; a cleared one has empty text.
        #expect(stream.event(for: .interimChanged(nil), elapsedSeconds: 3.1) ==
                RecordingStreamEvent(type: .interim, elapsed: 3.1, audioStart: 1.25, audioEnd: 3, text: ""))
    }
}
