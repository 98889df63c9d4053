import Foundation
import LiveTranscriberCore

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
///
/// The card fits the terminal it is given: no line is wider than `width`, and there are fewer
/// lines than `height` (the row under the card keeps the cursor, so a redraw never scrolls).
/// When rows are short, whole lines are dropped (blank lines first, then the hint, the footer,
/// then the oldest transcript lines); a transcript line is shown whole or not at all, except the
/// newest one when it alone is taller than the card, which keeps its end behind a "…". Below
/// `minimumWidth` × `minimumHeight` the card is a single status line (`isCompact`).
/// Text from the recognizer is shown with hidden characters made visible (`VisibleText`).
public struct TerminalCardRenderer: Sendable, Equatable {
    /// The hint shown while recording or paused.
    public static let stopHint = "Ctrl-C or q stops and saves"

    /// The transcript row while no line has come yet.
    public static let listeningText = "Listening…"
    /// The transcript row of a stopped recording that had no line at all.
    public static let noSpeechText = "No speech was heard."

    /// The narrowest terminal that gets a card: narrower ones get one status line.
    public static let minimumWidth = 20
    /// The shortest terminal (in rows) that gets a card: shorter ones get one status line.
    public static let minimumHeight = 5

    /// Total columns of the card, borders included (the terminal's width).
    public var width: Int
    /// Rows of the terminal; nil when unknown (no limit).
    public var height: Int?
    /// ANSI colors (false when NO_COLOR is set or the output is not a terminal).
    public var color: Bool
    /// Rows of final transcript at most (the interim line comes on top of them); the newest are kept.
    public var maxTranscriptRows: Int
    /// The last row while recording or paused: how to stop (and pause, where keys work).
    public var hint: String
    /// The last row of a stopped card whose last lines are still being decoded (how to stop
    /// waiting); nil for none. A stopped card shows no other hint.
    public var finishingHint: String?

    public init(width: Int = 60, height: Int? = nil, color: Bool = false, maxTranscriptRows: Int = 4,
                hint: String = TerminalCardRenderer.stopHint, finishingHint: String? = nil) {
        self.width = max(1, width)
        self.height = height.map { max(1, $0) }
        self.color = color
        self.maxTranscriptRows = max(0, maxTranscriptRows)
        self.hint = hint
        self.finishingHint = finishingHint
    }

    /// Whether an output can take the live card, colors and cursor movement: a terminal
    /// (`isatty`) whose `TERM` names a real terminal. `TERM=dumb` (Emacs shells, some CI
    /// consoles) and an unset or empty `TERM` get what a pipe gets: plain lines, no escapes.
    public static func isInteractiveTerminal(isatty: Bool, environment: [String: String]) -> Bool {
        guard isatty, let term = environment["TERM"], !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// Whether to use colors: only on a terminal, and never when `NO_COLOR` is set to anything
    /// non-empty (https://no-color.org).
    public static func colorEnabled(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// True when the terminal is too small for a card, and `render` returns one status line.
    public var isCompact: Bool {
        width < Self.minimumWidth || (height ?? .max) < Self.minimumHeight
    }

    /// The card's lines, without newlines; one line when `isCompact`.
    /// - Parameters:
    ///   - presentation: what to show (status, timer, transcript, language, count).
    ///   - elapsedSeconds: the time to show while the timer ticks (pauses excluded).
    ///   - finalLines: the final transcript lines, oldest first (the card shows them newest first);
    ///     when empty, the presentation's transcript is used.
    ///   - interim: the tentative text after the last final one; "" for none.
    public func render(
        _ presentation: LockScreenPresentation, elapsedSeconds: Double, finalLines: [String] = [], interim: String = ""
    ) -> [String] {
        let timer = presentation.timer.text(elapsedSeconds: elapsedSeconds)
        if isCompact {
            return [compactLine(presentation, timer: timer)]
        }
        let inner = width - 4
        let top = style("╭" + String(repeating: "─", count: width - 2) + "╮", "2")
        let bottom = style("╰" + String(repeating: "─", count: width - 2) + "╯", "2")

        let statusRoom = max(1, inner - TerminalText.columns(of: timer) - 1)
        let status = TerminalText.prefix(VisibleText.escaped(presentation.status.text), width: max(1, statusRoom - 2))
        let gap = inner - 2 - TerminalText.columns(of: status) - TerminalText.columns(of: timer)
        let statusRow = box(
            style("●", presentation.status.dotColor.ansiCode) + " " + style(status, "1")
                + String(repeating: " ", count: max(1, gap)) + style(timer, "1"),
            plainWidth: 2 + TerminalText.columns(of: status) + max(1, gap) + TerminalText.columns(of: timer))
        let footerText = TerminalText.prefix(VisibleText.escaped("\(presentation.language) · \(presentation.segmentCountText)"), width: inner)
        let footer = box(style(footerText, "2"), plainWidth: TerminalText.columns(of: footerText))
        var hintRow: String?
        if let shown = presentation.status.glyph != .stopped ? hint : finishingHint {
            let hint = TerminalText.prefix(shown, width: inner)
            hintRow = box(style(hint, "2"), plainWidth: TerminalText.columns(of: hint))
        }

        // Rows: the card must leave the terminal's last row free. Borders, status and one
        // transcript row are always there; blank rows, hint and footer go first when rows are short.
        let available = (height ?? .max) - 1
        var optional = available - 4
        let blankRows = optional >= 6 ? 2 : 0
        optional -= blankRows
        let showsHint = hintRow != nil && optional >= 2
        if showsHint { optional -= 1 }
        let showsFooter = optional >= 2
        if showsFooter { optional -= 1 }
        let transcriptRoom = 1 + optional

        var rows: [String] = [top, statusRow]
        if blankRows > 0 { rows.append(box("", plainWidth: 0)) }
        for (row, code) in transcriptRows(presentation, finalLines: finalLines, interim: interim, inner: inner, room: transcriptRoom) {
            rows.append(box(code.map { style(row, $0) } ?? row, plainWidth: TerminalText.columns(of: row)))
        }
        if blankRows > 0 { rows.append(box("", plainWidth: 0)) }
        if showsFooter { rows.append(footer) }
        if showsHint, let hintRow { rows.append(hintRow) }
        rows.append(bottom)
        return rows
    }

    /// Newest first: the interim line (the words being spoken) on top, then whole final lines from
    /// the newest back while they fit in `maxTranscriptRows` and the `room` left; the newest line
    /// alone taller than that keeps its end.
    /// Each row comes with its ANSI style code, if any (amber interim, dim "Listening…" or "No speech was heard.").
    private func transcriptRows(
        _ presentation: LockScreenPresentation, finalLines: [String], interim: String, inner: Int, room: Int
    ) -> [(String, String?)] {
        if presentation.isTranscriptHidden {
            return [(TerminalText.prefix(LockScreenPresentation.hiddenTranscriptText, width: inner), nil)]
        }
        var rows: [(String, String?)] = []
        let interimText = VisibleText.escaped(interim.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
        if !interimText.isEmpty {
            rows.append((TerminalText.suffix(interimText, width: inner), "33"))
        }
        let source = finalLines.isEmpty
            ? (presentation.transcript ?? "").split(whereSeparator: { $0.isNewline }).map(String.init)
            : finalLines
        let limit = min(room, rows.count + maxTranscriptRows)
        for line in source.reversed() {
            let left = limit - rows.count
            guard left > 0 else { break }
            let wrapped = TerminalText.wrap(VisibleText.escaped(line), width: inner)
            if wrapped.count <= left {
                rows += wrapped.map { ($0, nil) }
            } else {
                if rows.allSatisfy({ $0.1 != nil }) {  // the newest final line: its end, marked as cut
                    rows += Self.tail(of: wrapped.joined(separator: " "), rows: left, width: inner).map { ($0, nil) }
                }
                break
            }
        }
        if rows.isEmpty {
            // A stopped recording listens no more: it says that it heard no speech.
            let placeholder = presentation.status.glyph == .stopped ? Self.noSpeechText : Self.listeningText
            rows.append((TerminalText.prefix(placeholder, width: inner), "2"))
        }
        return rows
    }

    /// The end of `text` in at most `rows` rows of `width` columns, "…" in front: whole words are
    /// dropped from the start until the rest fits.
    static func tail(of text: String, rows: Int, width: Int) -> [String] {
        var words = text.split(separator: " ").map(String.init)
        while words.count > 1 {
            let wrapped = TerminalText.wrap(String(PresentationText.ellipsis) + words.joined(separator: " "), width: width)
            if wrapped.count <= rows { return wrapped }
            words.removeFirst()
        }
        return Array(TerminalText.wrap(String(PresentationText.ellipsis) + (words.first ?? ""), width: width).suffix(rows))
    }

    /// The status on one line, for a terminal too small for the card, the timer first so it survives
    /// any cut: "● 1:30 Recording · 12 segments".
    private func compactLine(_ presentation: LockScreenPresentation, timer: String) -> String {
        let text = "● " + timer + " " + VisibleText.escaped(presentation.status.text) + " · " + presentation.segmentCountText
        let fitted = TerminalText.prefix(text, width: max(1, width - 1))
        guard color, fitted.hasPrefix("●") else { return fitted }
        return style("●", presentation.status.dotColor.ansiCode) + String(fitted.dropFirst())
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
