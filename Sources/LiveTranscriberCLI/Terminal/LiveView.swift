import Foundation
import LiveTranscriberCore

/// What the live view shows at one moment of a recording.
struct LiveViewSnapshot: Equatable {
    /// The Lock Screen view model of the Live Activity's latest content state.
    var presentation: LockScreenPresentation?
    /// Seconds recorded, pauses excluded (the card's ticking timer).
    var elapsedSeconds: Double
    /// Seconds of the whole input when known (files), for progress bars.
    var totalSeconds: Double?
    var finals: [TranscriptSegment]
    var interim: String?
    /// True when keys (space, p, q) work, false for stdin input.
    var acceptsKeys: Bool
}

/// Redraws the recording card in place on a terminal: the Lock Screen presentation drawn by
/// the core's `TerminalCardRenderer`, with the interim line the Live Activity leaves out.
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
        guard let presentation = snapshot.presentation else { return }
        let paused = presentation.status.glyph == .paused
        let hint = snapshot.acceptsKeys
            ? "space \(paused ? "resumes" : "pauses") · q or Ctrl-C stops and saves" : "Ctrl-C stops and saves"
        let renderer = TerminalCardRenderer(width: min(Terminal.width(), 100), color: color, maxTranscriptRows: 8, hint: hint)
        let lines = renderer.render(presentation, elapsedSeconds: snapshot.elapsedSeconds,
                                    finalLines: snapshot.finals.map { ElapsedTimeFormat.clock($0.startSeconds) + "  " + $0.text },
                                    interim: snapshot.interim ?? "")
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

/// Elapsed times as people read them.
enum TimeText {
    /// "0:09", "1:30", "59:59", "1:00:00"; negative and NaN read as 0:00.
    static func elapsed(_ seconds: Double) -> String { ElapsedTimeFormat.clock(seconds) }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
