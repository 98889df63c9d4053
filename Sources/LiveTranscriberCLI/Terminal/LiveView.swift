import Foundation
import LiveTranscriberCore

/// What the live view shows at one moment of a recording.
struct LiveViewSnapshot: Equatable {
    enum Status: Equatable { case recording, paused }
    var status: Status
    /// Seconds recorded, pauses excluded.
    var elapsedSeconds: Double
    /// Seconds of the whole input when known (files), for progress bars.
    var totalSeconds: Double?
    var finals: [TranscriptSegment]
    var interim: String?
    var language: String
    /// True when keys (space, p, q) work, false for stdin input.
    var acceptsKeys: Bool
}

/// Redraws the recording card in place on a terminal.
final class LiveTerminalView {
    private let output: any TextOutput
    private let color: Bool
    private var drawnLines = 0

    init(output: any TextOutput, color: Bool) {
        self.output = output
        self.color = color
        output.write("\u{1B}[?25l")  // hide the cursor while the card is live
    }

    /// Replaces the previous card with one for `snapshot`.
    func render(_ snapshot: LiveViewSnapshot) {
        let lines = LiveCardText.lines(for: snapshot, width: Terminal.width(), color: color)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F\u{1B}[J" : ""
        text += lines.joined(separator: "\n") + "\n"
        output.write(text)
        drawnLines = lines.count
    }

    /// Leaves the last card on screen and shows the cursor again.
    func finish() {
        output.write("\u{1B}[?25h")
    }
}

/// The card's text, pure so tests can check it.
enum LiveCardText {
    static let visibleFinals = 6

    static func lines(for snapshot: LiveViewSnapshot, width: Int, color: Bool) -> [String] {
        let paint = { (code: String, text: String) in color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let inner = max(30, min(width, 100) - 4)
        let dot = snapshot.status == .recording ? paint("31", "●") : paint("32", "●")
        let state = snapshot.status == .recording ? "Recording" : "Paused"
        let timer = TimeText.elapsed(snapshot.elapsedSeconds)
        var lines = [dot + " " + state + String(repeating: " ", count: max(1, inner - state.count - 2 - timer.count)) + paint("1", timer)]
        lines.append(String(repeating: "─", count: inner))
        var transcript: [String] = []
        if let interim = snapshot.interim {
            transcript.append(paint("33", "  …    " + clip(interim, inner - 7)))
        }
        for segment in snapshot.finals.suffix(visibleFinals).reversed() {
            transcript.append(paint("31", TimeText.elapsed(segment.startSeconds).leftPadded(to: 5)) + "  " + clip(segment.text, inner - 7))
        }
        if transcript.isEmpty { transcript.append(paint("2", "  Listening…")) }
        lines += transcript
        lines.append(String(repeating: "─", count: inner))
        let count = snapshot.finals.count
        let footer = "\(snapshot.language) · \(count) segment\(count == 1 ? "" : "s")"
        let hint = snapshot.acceptsKeys ? "space pauses · q or Ctrl-C stops and saves" : "Ctrl-C stops and saves"
        lines.append(footer + "   " + paint("2", hint))
        return lines
    }

    /// Keeps the newest end of `text` within `limit` characters.
    private static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : "…" + String(text.suffix(max(1, limit - 1)))
    }
}

/// Elapsed times as people read them.
enum TimeText {
    /// "0:09", "1:30", "59:59", "1:00:00"; negative and non-finite read as 0:00.
    static func elapsed(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds)) : 0
        let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
