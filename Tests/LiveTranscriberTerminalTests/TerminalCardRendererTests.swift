import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
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
            #expect(Array(lines[3...4]) == ["│ …three four five six │", "│ seven eight nine ten │"])
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

        @Test("no line yet: 'Listening…' while recording or paused; a stopped card says no speech was heard (trial 6: the stopped card of 20 s of silence said 'Listening…')")
        func noLines() {
            let renderer = TerminalCardRenderer(width: 30, color: false)
            #expect(renderer.render(presentation(), elapsedSeconds: 20)[3] == "│ Listening…                 │")
            #expect(renderer.render(presentation(.paused, elapsed: 20), elapsedSeconds: 20)[3] == "│ Listening…                 │")
            let stopped = renderer.render(presentation(.stopped, elapsed: 20), elapsedSeconds: 20)
            #expect(stopped[3] == "│ No speech was heard.       │")
            #expect(!stopped.joined().contains("Listening"))
        }

        @Test("a stopped card whose last lines are still decoded shows the finishing hint as its last row; without one, none")
        func finishing() {
            let waiting = TerminalCardRenderer(width: 44, color: false, finishingHint: "transcribing the rest · q or Ctrl-C saves now")
            let rows = waiting.render(presentation(.stopped, elapsed: 114), elapsedSeconds: 114, finalLines: ["1:22  He might even"])
            #expect(rows.suffix(2) == ["│ transcribing the rest · q or Ctrl-C sav… │", "╰──────────────────────────────────────────╯"])
            #expect(!rows.joined().contains(TerminalCardRenderer.stopHint))
            let recording = waiting.render(presentation(), elapsedSeconds: 114)
            #expect(recording.contains("│ \(TerminalCardRenderer.stopHint)              │"))
            #expect(!recording.joined().contains("transcribing"))
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
    @Test("every row is exactly as wide as the card, down to the 20-column minimum", arguments: [20, 21, 33, 80])
    func widths(width: Int) {
        let content = Fixture.content(.paused, elapsed: 359999999, transcript: "x", language: "zh-Hant-TW-x-private-use", count: 123_456)
        let presentation = LockScreenPresentation(attributes: Fixture.attributes, content: content)
        let renderer = TerminalCardRenderer(width: width, color: false)
        let lines = renderer.render(presentation, elapsedSeconds: .nan,
                                    finalLines: [String(repeating: "supercalifragilistic", count: 5), "👨‍👩‍👧‍👦🇯🇵 语"],
                                    interim: String(repeating: "interim ", count: 30))
        #expect(lines.allSatisfy { TerminalText.columns(of: $0) == width })
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

extension LiveActivityTests {
    @Suite("Terminal card fits the terminal")
    struct TerminalCardSizeTests {
        func presentation() -> LockScreenPresentation {
            LockScreenPresentation(attributes: Fixture.attributes, content: Fixture.content(.recording, transcript: "", count: 12),
                                   settings: PresentationSettings(hideTranscriptOnLockScreen: false))
        }

        let finals = ["0:00  the first line", "0:05  a second line that is long enough to wrap onto two rows", "0:09  newest"]

        @Test("every size: lines never wider than the terminal, fewer than its rows", arguments: [
            (60, 10), (60, 40), (20, 5), (19, 40), (80, 4), (10, 3), (1, 1), (100, 7),
        ])
        func fits(columns: Int, rows: Int) {
            let renderer = TerminalCardRenderer(width: columns, height: rows, maxTranscriptRows: 8)
            let lines = renderer.render(presentation(), elapsedSeconds: 90, finalLines: finals, interim: "and more")
            #expect(lines.count < max(2, rows))
            #expect(lines.allSatisfy { TerminalText.columns(of: $0) <= columns })
        }

        @Test("9 rows: whole lines only, blank rows dropped first, the oldest line left out whole")
        func shortTerminal() {
            let renderer = TerminalCardRenderer(width: 40, height: 9, maxTranscriptRows: 8)
            let lines = renderer.render(presentation(), elapsedSeconds: 90, finalLines: finals, interim: "")
            #expect(lines == [
                "╭──────────────────────────────────────╮",
                "│ ● Recording                     1:30 │",
                "│ 0:09 newest                          │",
                "│ 0:05 a second line that is long      │",
                "│ enough to wrap onto two rows         │",
                "│ en-US · 12 segments                  │",
                "│ Ctrl-C or q stops and saves          │",
                "╰──────────────────────────────────────╯",
            ])
        }

        @Test("the newest line alone taller than the card keeps its end behind an ellipsis")
        func newestTooTall() {
            let renderer = TerminalCardRenderer(width: 24, height: 6, maxTranscriptRows: 8)
            let lines = renderer.render(presentation(), elapsedSeconds: 5, finalLines: ["one two three four five six seven eight nine ten"])
            #expect(lines == [
                "╭──────────────────────╮",
                "│ ● Recording     0:05 │",
                "│ …three four five six │",
                "│ seven eight nine ten │",
                "╰──────────────────────╯",
            ])
            #expect(lines[2].hasPrefix("│ …"))
        }

        @Test("below 20 columns or 5 rows: one status line, timer first")
        func compact() {
            let small = TerminalCardRenderer(width: 19, height: 40)
            #expect(small.isCompact)
            #expect(small.render(presentation(), elapsedSeconds: 90) == ["● 1:30 Recording …"])
            #expect(TerminalCardRenderer(width: 80, height: 4).render(presentation(), elapsedSeconds: 90) == ["● 1:30 Recording · 12 segments"])
            #expect(!TerminalCardRenderer(width: 20, height: 5).isCompact)
        }

        @Test("escape sequences in recognized text are shown, not sent")
        func escapes() {
            let lines = TerminalCardRenderer(width: 40).render(presentation(), elapsedSeconds: 1, finalLines: ["bad\u{1B}[2J"], interim: "x\u{202E}y")
            #expect(!lines.joined().unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
            #expect(lines.contains { $0.contains("bad\\u{1B}[2J") })
        }

        @Test("TERM=dumb and an unset TERM are not interactive terminals")
        func dumb() {
            #expect(!TerminalCardRenderer.isInteractiveTerminal(isatty: true, environment: ["TERM": "dumb"]))
            #expect(!TerminalCardRenderer.isInteractiveTerminal(isatty: true, environment: [:]))
            #expect(TerminalCardRenderer.isInteractiveTerminal(isatty: true, environment: ["TERM": "xterm-256color"]))
            #expect(!TerminalCardRenderer.isInteractiveTerminal(isatty: false, environment: ["TERM": "xterm"]))
        }
    }
}
