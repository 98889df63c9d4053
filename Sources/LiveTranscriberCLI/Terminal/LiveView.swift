import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal

/// What the live view shows at one moment of a recording.
package struct LiveViewSnapshot: Equatable {
    /// The Lock Screen view model of the Live Activity's latest content state.
    package var presentation: LockScreenPresentation?
    /// The card's ticking timer, seconds: recorded (pauses excluded), or transcribed for a file
    /// read at full speed.
    var elapsedSeconds: Double
    /// Seconds of audio transcribed from the start: what progress bars count.
    var transcribedSeconds: Double
    /// Seconds of the whole input when known (files), for progress bars.
    var totalSeconds: Double?
    var finals: [TranscriptSegment]
    var interim: String?
    /// True when keys (space, p, q) work, false for stdin input.
    var acceptsKeys: Bool
    /// True while the audio has stopped and the last decodes are still running.
    var finishing = false
    /// True when stopping saves nothing (`record --discard`): the hints must not promise a save.
    var discards = false
}

/// Redraws the recording card in place on a terminal: the Lock Screen presentation drawn by
/// the core's `TerminalCardRenderer`, with the interim line the Live Activity leaves out.
///
/// The card is sized to the terminal at every draw (a resize is followed at the next draw) and
/// always leaves the bottom row free, so moving the cursor back over it never scrolls; on a
/// terminal too small for a card, one status line is redrawn with a carriage return.
final class LiveTerminalView {
    private let output: any TextOutput
    private let color: Bool
    private let size: () -> (columns: Int, rows: Int)
    /// Lines of the last card (each ended by a newline), and the card's width in columns.
    private var drawnLines: [String] = []
    private var drawnWidth = 0
    /// True when the last draw was a status line without a newline.
    private var drawnInline = false

    init(output: any TextOutput, color: Bool, size: @escaping () -> (columns: Int, rows: Int) = { Terminal.size(fileDescriptor: 2) }) {
        self.output = output
        self.color = color
        self.size = size
        output.write("\u{1B}[?25l")  // hide the cursor while the card is live
    }

    /// Replaces the previous card with one for `snapshot`.
    func render(_ snapshot: LiveViewSnapshot) {
        guard let presentation = snapshot.presentation else { return }
        let paused = presentation.status.glyph == .paused
        let stopKeys = snapshot.acceptsKeys ? "q or Ctrl-C" : "Ctrl-C"
        let stops = snapshot.discards ? "\(stopKeys) stops, saves nothing" : "\(stopKeys) stops and saves"
        let hint = snapshot.acceptsKeys ? "space \(paused ? "resumes" : "pauses") · \(stops)" : stops
        let (columns, rows) = size()
        // After the audio stops, the last lines may take a while (a file read ahead): say so, and how to stop waiting.
        let finishingHint = snapshot.finishing
            ? "transcribing the rest · \(stopKeys) \(snapshot.discards ? "stops now" : "saves now")" : nil
        let renderer = TerminalCardRenderer(width: min(columns, 100), height: rows, color: color, maxTranscriptRows: 8, hint: hint,
                                            finishingHint: finishingHint)
        let lines = renderer.render(presentation, elapsedSeconds: snapshot.elapsedSeconds,
                                    finalLines: snapshot.finals.map { ElapsedTimeFormat.clock($0.startSeconds) + "  " + $0.text },
                                    interim: snapshot.interim ?? "")
        var text = erase(columns: columns, rows: rows)
        if renderer.isCompact {
            text += lines.joined()
            drawnLines = []
            drawnInline = true
        } else {
            text += lines.joined(separator: "\n") + "\n"
            drawnLines = lines
            drawnInline = false
        }
        drawnWidth = renderer.width
        output.write(text)
    }

    /// Moves back over the last drawing and clears it. Lines drawn at a greater width may have
    /// been rewrapped by the terminal after a resize: they count for the rows they now take.
    private func erase(columns: Int, rows: Int) -> String {
        // Before the first card, the current line is cleared too: a key typed before key input was
        // set up (a "q" echoed by the terminal while the model loaded) must not stay in front of it.
        if drawnInline || drawnLines.isEmpty { return "\r\u{1B}[K" }
        var count = drawnLines.count
        if columns < drawnWidth {
            count *= (drawnWidth + columns - 1) / max(1, columns)
        }
        return "\u{1B}[\(min(count, max(1, rows - 1)))F\u{1B}[J"
    }

    /// Leaves the last card on screen and shows the cursor again.
    func finish() {
        output.write((drawnInline ? "\n" : "") + "\u{1B}[?25h")
        drawnInline = false
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
