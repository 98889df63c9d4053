import Foundation

/// Draws the Lock Screen presentation as a text card for a terminal: the Linux live view.
///
/// ```
/// ╭──────────────────────────────────────╮
/// │ ● Recording                     1:30 │
/// │                                      │
/// │ interim words, in amber              │
/// │ the newest final line                │
/// │ an older final line                  │
/// │                                      │
/// │ en-US · 12 segments                  │
/// │ Ctrl-C or q stops and saves          │
/// ╰──────────────────────────────────────╯
/// ```
/// Unlike the Live Activity it also shows interim text, since a terminal costs nothing to
/// redraw. A terminal cannot tick a clock itself, so the caller passes the elapsed seconds.
/// Pure: returns the lines, and the caller writes them.
public struct TerminalCardRenderer: Sendable, Equatable {
    /// The hint shown while recording or paused.
    public static let stopHint = "Ctrl-C or q stops and saves"

    /// Total columns of the card, borders included; at least 20.
    public var width: Int
    /// ANSI colors (false when NO_COLOR is set or the output is not a terminal).
    public var color: Bool
    /// Rows of final transcript at most (the interim line comes on top of them); the newest are kept.
    public var maxTranscriptRows: Int
    /// The last row while recording or paused: how to stop (and pause, where keys work).
    public var hint: String

    public init(width: Int = 60, color: Bool = false, maxTranscriptRows: Int = 4, hint: String = TerminalCardRenderer.stopHint) {
        self.width = max(20, width)
        self.color = color
        self.maxTranscriptRows = max(0, maxTranscriptRows)
        self.hint = hint
    }

    /// Whether to use colors: only on a terminal, and never when `NO_COLOR` is set to anything
    /// non-empty (https://no-color.org).
    public static func colorEnabled(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The card's lines, without newlines.
    /// - Parameters:
    ///   - presentation: what to show (status, timer, transcript, language, count).
    ///   - elapsedSeconds: the time to show while the timer ticks (pauses excluded).
    ///   - finalLines: the final transcript lines, oldest first (the card shows them newest first);
    ///     when empty, the presentation's transcript is used.
    ///   - interim: the tentative text after the last final one; "" for none.
    public func render(
        _ presentation: LockScreenPresentation, elapsedSeconds: Double, finalLines: [String] = [], interim: String = ""
    ) -> [String] {
        let inner = width - 4
        var rows: [String] = [style("╭" + String(repeating: "─", count: width - 2) + "╮", "2")]

        let timer = presentation.timer.text(elapsedSeconds: elapsedSeconds)
        let statusRoom = max(1, inner - TerminalText.columns(of: timer) - 1)
        let status = TerminalText.prefix(presentation.status.text, width: max(1, statusRoom - 2))
        let gap = inner - 2 - TerminalText.columns(of: status) - TerminalText.columns(of: timer)
        rows.append(box(
            style("●", presentation.status.dotColor.ansiCode) + " " + style(status, "1")
                + String(repeating: " ", count: max(1, gap)) + style(timer, "1"),
            plainWidth: 2 + TerminalText.columns(of: status) + max(1, gap) + TerminalText.columns(of: timer)))
        rows.append(box("", plainWidth: 0))

        // Newest first: the interim line (the words being spoken) on top, then final lines from
        // the newest back; a line too long for the rows left keeps its trailing (newest) rows.
        let interimText = interim.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        var transcriptRows: [String] = []
        var showsInterim = false
        if presentation.isTranscriptHidden {
            transcriptRows = [LockScreenPresentation.hiddenTranscriptText]
        } else {
            if !interimText.isEmpty {
                transcriptRows.append(TerminalText.suffix(interimText, width: inner))
                showsInterim = true
            }
            let source = finalLines.isEmpty
                ? (presentation.transcript ?? "").split(whereSeparator: { $0.isNewline }).map(String.init)
                : finalLines
            var left = maxTranscriptRows
            for line in source.reversed() where left > 0 {
                let wrapped = TerminalText.wrap(line, width: inner)
                transcriptRows += wrapped.suffix(left)
                left -= min(left, wrapped.count)
            }
        }
        for (index, row) in transcriptRows.enumerated() {
            let text = showsInterim && index == 0 ? style(row, "33") : row
            rows.append(box(text, plainWidth: TerminalText.columns(of: row)))
        }
        if transcriptRows.isEmpty {
            let waiting = "Listening…"
            rows.append(box(style(waiting, "2"), plainWidth: TerminalText.columns(of: waiting)))
        }
        rows.append(box("", plainWidth: 0))

        let footer = TerminalText.prefix("\(presentation.language) · \(presentation.segmentCountText)", width: inner)
        rows.append(box(style(footer, "2"), plainWidth: TerminalText.columns(of: footer)))
        if presentation.status.glyph != .stopped {
            let hint = TerminalText.prefix(hint, width: inner)
            rows.append(box(style(hint, "2"), plainWidth: TerminalText.columns(of: hint)))
        }
        rows.append(style("╰" + String(repeating: "─", count: width - 2) + "╯", "2"))
        return rows
    }

    /// `content` between the side borders, padded to the card's width.
    private func box(_ content: String, plainWidth: Int) -> String {
        let padding = String(repeating: " ", count: max(0, width - 4 - plainWidth))
        return style("│", "2") + " " + content + padding + " " + style("│", "2")
    }

    private func style(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
