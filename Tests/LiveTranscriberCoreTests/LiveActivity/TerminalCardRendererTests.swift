import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Terminal card")
    struct TerminalCardRendererTests {
        let t0 = Fixture.t0

        func presentation(_ status: RecordingActivityAttributes.ContentState.Status = .recording, elapsed: Double? = nil,
                          transcript: String = "", hide: Bool = false) -> LockScreenPresentation {
            LockScreenPresentation(attributes: Fixture.attributes,
                                   content: Fixture.content(status, elapsed: elapsed, transcript: transcript, count: 12),
                                   settings: PresentationSettings(hideTranscriptOnLockScreen: hide))
        }

        @Test("a recording card without color, exactly: interim on top, then finals newest first")
        func plain() {
            let renderer = TerminalCardRenderer(width: 40, color: false, maxTranscriptRows: 2)
            let lines = renderer.render(presentation(), elapsedSeconds: 90,
                                        finalLines: ["An older line.", "The newest final line."], interim: "and some interim")
            #expect(lines == [
                "╭──────────────────────────────────────╮",
                "│ ● Recording                     1:30 │",
                "│                                      │",
                "│ and some interim                     │",
                "│ The newest final line.               │",
                "│ An older line.                       │",
                "│                                      │",
                "│ en-US · 12 segments                  │",
                "│ Ctrl-C or q stops and saves          │",
                "╰──────────────────────────────────────╯",
            ])
        }

        @Test("only the newest rows are kept, wrapped to the width")
        func newestRows() {
            let renderer = TerminalCardRenderer(width: 24, maxTranscriptRows: 2)
            let lines = renderer.render(presentation(), elapsedSeconds: 5, finalLines: ["one two three four five six seven eight nine ten"])
            #expect(Array(lines[3...4]) == ["│ five six seven eight │", "│ nine ten             │"])
            #expect(lines.allSatisfy { TerminalText.columns(of: $0) == 24 })
        }

        @Test("colors: red dot while recording, amber when paused, interim in amber")
        func colors() {
            let renderer = TerminalCardRenderer(width: 40, color: true)
            let recording = renderer.render(presentation(), elapsedSeconds: 1, interim: "hi")
            #expect(recording[1].contains("\u{1B}[31m●\u{1B}[0m"))
            #expect(recording.contains { $0.contains("\u{1B}[33mhi\u{1B}[0m") })
            let paused = renderer.render(presentation(.paused, elapsed: 3909), elapsedSeconds: 999)
            #expect(paused[1].contains("\u{1B}[33m●\u{1B}[0m"))
            #expect(paused[1].contains("1:05:09"))
            #expect(!TerminalCardRenderer(width: 40, color: false).render(presentation(), elapsedSeconds: 1).joined().contains("\u{1B}"))
        }

        @Test("a stopped card has no stop hint; a hidden transcript shows the placeholder")
        func stoppedAndHidden() {
            let renderer = TerminalCardRenderer(width: 50)
            let stopped = renderer.render(presentation(.stopped, elapsed: 180), elapsedSeconds: 0)
            #expect(!stopped.joined().contains(TerminalCardRenderer.stopHint))
            let hidden = renderer.render(presentation(transcript: "secret", hide: true), elapsedSeconds: 0, finalLines: ["secret"], interim: "more")
            #expect(!hidden.joined().contains("secret"))
            #expect(hidden.joined().contains(LockScreenPresentation.hiddenTranscriptText))
        }

        @Test("wide characters count two columns and the card stays aligned")
        func wide() {
            let renderer = TerminalCardRenderer(width: 30)
            let lines = renderer.render(presentation(), elapsedSeconds: 3909, finalLines: ["这是一个很长的中文句子需要换行显示出来", "👍🏽 ok"])
            #expect(lines.allSatisfy { TerminalText.columns(of: $0) == 30 })
            #expect(lines[1].hasSuffix("1:05:09 │"))
        }
    }
}

extension LiveActivityTests.TerminalCardRendererTests {
    @Test("every row is exactly as wide as the card, however narrow", arguments: [1, 20, 21, 33, 80])
    func widths(width: Int) {
        let content = Fixture.content(.paused, elapsed: 359999999, transcript: "x", language: "zh-Hant-TW-x-private-use", count: 123_456)
        let presentation = LockScreenPresentation(attributes: Fixture.attributes, content: content)
        let renderer = TerminalCardRenderer(width: width, color: false)
        let lines = renderer.render(presentation, elapsedSeconds: .nan,
                                    finalLines: [String(repeating: "supercalifragilistic", count: 5), "👨‍👩‍👧‍👦🇯🇵 语"],
                                    interim: String(repeating: "interim ", count: 30))
        #expect(lines.allSatisfy { TerminalText.columns(of: $0) == max(20, width) })
        #expect(lines.count >= 8)
    }
}

extension LiveActivityTests.TerminalCardRendererTests {
    @Test("NO_COLOR or a non-terminal turns colors off", arguments: [
        ([String: String](), true, true), (["NO_COLOR": "1"], true, false), (["NO_COLOR": ""], true, true), ([:], false, false),
    ])
    func noColor(environment: [String: String], isTerminal: Bool, expected: Bool) {
        #expect(TerminalCardRenderer.colorEnabled(environment: environment, isTerminal: isTerminal) == expected)
    }
}
