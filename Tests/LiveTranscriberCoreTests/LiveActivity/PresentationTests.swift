import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Lock Screen and Dynamic Island presentations")
    struct PresentationTests {
        let t0 = Fixture.t0
        let longText = (1...30).map { "Sentence number \($0) is here." }.joined(separator: "\n")

        @Test("the Lock Screen shows status, a ticking timer, two trimmed lines, footer and stop while recording")
        func lockScreenRecording() {
            let content = Fixture.content(transcript: "First line.\nSecond line.\nThird line.", count: 3)
            let lock = LockScreenPresentation(attributes: Fixture.attributes, content: content)
            #expect(lock.status.text == "Recording")
            #expect(lock.status.dotColor == .red)
            #expect(lock.timer == .ticking(from: t0))
            #expect(lock.transcript == "…Second line.\nThird line.")
            #expect(lock.language == "en-US")
            #expect(lock.segmentCountText == "3 segments")
            #expect(lock.stopAction == .stopRecording(session: "rec-1"))
            #expect(lock.recordingName == "Standup")
        }

        @Test("the Lock Screen transcript stays within about 220 characters", arguments: [220, 130])
        func limits(limit: Int) {
            let content = Fixture.content(transcript: String(repeating: "abcdefghij ", count: 60))
            let lock = LockScreenPresentation(attributes: Fixture.attributes, content: content)
            let island = ExpandedIslandPresentation(attributes: Fixture.attributes, content: content)
            let text = limit == 220 ? lock.transcript : island.transcript
            #expect((text ?? "").count <= limit)
            #expect((text ?? "").count >= limit - 2)
            #expect(text?.hasPrefix("…") == true)
            #expect(text?.hasSuffix("abcdefghij") == true)
        }

        @Test("paused and stopped show fixed text and no stop action", arguments: [
            (RecordingActivityAttributes.ContentState.Status.paused, "Paused", ActivityStatusStyle.DotColor.amber, ActivityStatusStyle.Glyph.paused),
            (.stopped, "Stopped", .green, .stopped),
        ])
        func notRecording(status: RecordingActivityAttributes.ContentState.Status, text: String,
                          color: ActivityStatusStyle.DotColor, glyph: ActivityStatusStyle.Glyph) {
            let content = Fixture.content(status, elapsed: 3909, count: 1)
            let lock = LockScreenPresentation(attributes: Fixture.attributes, content: content)
            #expect(lock.status.text == text)
            #expect(lock.status.dotColor == color)
            #expect(lock.timer == .fixed("1:05:09"))
            #expect(lock.stopAction == nil)
            #expect(lock.segmentCountText == "1 segment")
            let island = ExpandedIslandPresentation(attributes: Fixture.attributes, content: content)
            #expect(island.stopAction == nil)
            #expect(island.timer == .fixed("1:05:09"))
            let compact = CompactIslandPresentation(content: content)
            #expect(compact.timer == .fixed("1h05"))
            #expect(compact.glyph == glyph)
            #expect(MinimalIslandPresentation(content: content).glyph == glyph)
        }

        @Test("the privacy setting hides the transcript on the Lock Screen only")
        func privacy() {
            let content = Fixture.content(transcript: "My bank PIN is 1234", count: 1)
            let lock = LockScreenPresentation(attributes: Fixture.attributes, content: content,
                                              settings: PresentationSettings(hideTranscriptOnLockScreen: true))
            #expect(lock.transcript == nil)
            #expect(lock.isTranscriptHidden)
            #expect(lock.segmentCount == 1)
            #expect(LockScreenPresentation(attributes: Fixture.attributes, content: content).transcript == "My bank PIN is 1234")
        }

        @Test("compact shows about 28 characters on one line and a compact clock")
        func compact() {
            let content = Fixture.content(transcript: "The quick brown fox\njumps over the lazy dog")
            let compact = CompactIslandPresentation(content: content)
            #expect(compact.transcript == "…fox jumps over the lazy dog")
            #expect(compact.transcript.count == 28)
            #expect(compact.timer == .ticking(from: t0))
            #expect(compact.elapsedText(elapsedSeconds: 3909) == "1h05")
            #expect(compact.elapsedText(elapsedSeconds: 309) == "5:09")
            #expect(compact.dotColor == .red)
            #expect(MinimalIslandPresentation(content: content).glyph == .recording)
        }

        @Test("segment counts read naturally", arguments: [(0, "0 segments"), (1, "1 segment"), (2, "2 segments"), (-3, "0 segments")])
        func counts(count: Int, text: String) {
            #expect(LockScreenPresentation.segmentCountText(count) == text)
        }
    }
}
