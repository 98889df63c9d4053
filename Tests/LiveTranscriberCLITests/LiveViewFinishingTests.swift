import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
import LiveTranscriberTestSupport
import Testing

/// The terminal card while the last decodes run after the audio stopped (trial 6: the card said
/// "Recording · space pauses" for the 5 to 8 s a busy machine took on a file's last utterances).
@Suite("Live view: after the audio stops")
struct LiveViewFinishingTests {
    func snapshot(finishing: Bool, acceptsKeys: Bool, discards: Bool = false,
                  status: RecordingActivityAttributes.ContentState.Status = .stopped) -> LiveViewSnapshot {
        let attributes = RecordingActivityAttributes(recordingID: "r", name: "Memo", startDate: Date(timeIntervalSince1970: 0))
        let content = RecordingActivityAttributes.ContentState(status: status, timerReferenceDate: Date(timeIntervalSince1970: 0),
                                                               elapsedSeconds: 114, transcript: "", language: "en-US", segmentCount: 1)
        return LiveViewSnapshot(presentation: LockScreenPresentation(attributes: attributes, content: content), elapsedSeconds: 114,
                                transcribedSeconds: 82, totalSeconds: nil,
                                finals: [TranscriptSegment(text: "He might even", startSeconds: 82, endSeconds: 84)],
                                interim: nil, acceptsKeys: acceptsKeys, finishing: finishing, discards: discards)
    }

    func lines(_ snapshot: LiveViewSnapshot) -> [String] {
        let output = BufferOutput(isTerminal: true)
        LiveTerminalView(output: output, color: false, size: { (60, 24) }).render(snapshot)
        return output.text.components(separatedBy: "\n")
    }

    @Test("stopped and still decoding: 'transcribing the rest' and how to stop waiting (q only where keys work); once done, no hint")
    func hint() {
        #expect(lines(snapshot(finishing: true, acceptsKeys: true)).contains("│ transcribing the rest · q or Ctrl-C saves now            │"))
        #expect(lines(snapshot(finishing: true, acceptsKeys: false)).contains("│ transcribing the rest · Ctrl-C saves now                 │"))
        let done = lines(snapshot(finishing: false, acceptsKeys: true))
        #expect(!done.joined().contains("transcribing") && !done.joined().contains("saves"))
        #expect(done.contains("│ ● Stopped                                           1:54 │"))
    }

    @Test("with --discard no hint promises a save: 'stops, saves nothing' while recording, 'stops now' while finishing")
    func discardHints() {
        #expect(lines(snapshot(finishing: true, acceptsKeys: true, discards: true)).contains("│ transcribing the rest · q or Ctrl-C stops now            │"))
        #expect(lines(snapshot(finishing: true, acceptsKeys: false, discards: true)).contains("│ transcribing the rest · Ctrl-C stops now                 │"))
        #expect(lines(snapshot(finishing: false, acceptsKeys: true, discards: true, status: .recording))
            .contains("│ space pauses · q or Ctrl-C stops, saves nothing          │"))
        #expect(lines(snapshot(finishing: false, acceptsKeys: true, status: .recording))
            .contains("│ space pauses · q or Ctrl-C stops and saves               │"))
    }
}
