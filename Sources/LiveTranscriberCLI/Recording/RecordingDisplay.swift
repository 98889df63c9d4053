import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal

/// How a recording in progress is shown: the live card, plain lines, a progress bar, or nothing.
package protocol RecordingDisplay: AnyObject {
    /// True when an interactive card is on a terminal (keys are then read).
    var isLive: Bool { get }
    /// Called after every block; `force` after a status change. The snapshot is built only when
    /// the display draws (plain lines and silence never do).
    func render(_ snapshot: @autoclosure () -> LiveViewSnapshot, force: Bool)
    func transcriptChanged()
    func finalAdded(_ segment: TranscriptSegment)
    /// Called once when the input is done. `reachedEnd` is false when a stop (Ctrl-C, SIGTERM,
    /// q) or a read failure ended it early: a display must not then claim the whole input.
    func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool)
}

extension RecordingDisplay {
    package func transcriptChanged() {}
    package func finalAdded(_ segment: TranscriptSegment) {}
}

enum RecordingDisplays {
    /// `record`'s choice: the live card on a terminal, else one plain line per final segment.
    /// When stdout carries JSON (`--json`, `--activity-feed -`), the view goes to stderr; when the
    /// activity feed goes to a terminal, the feed is shown alone (a card drawn on the same screen
    /// would interleave with its lines).
    static func forRecord(_ options: RecordingOptions, context: CommandContext) -> any RecordingDisplay {
        if (options.activityFeed == "-" || options.events == "-") && context.stdout.isTerminal { return SilentDisplay() }
        let stdoutTaken = options.json || options.activityFeed == "-" || options.events == "-"
        let output = stdoutTaken ? context.stderr : context.stdout
        if output.isTerminal {
            let descriptor: Int32 = stdoutTaken ? 2 : 1
            return LiveCardDisplay(output: output, color: TerminalCardRenderer.colorEnabled(environment: context.environment, isTerminal: true),
                                   size: { Terminal.size(fileDescriptor: descriptor, environment: context.environment) })
        }
        return PlainLinesDisplay(output: output)
    }
}

/// The live card, redrawn in place when the transcript changes or the timer ticks a second.
final class LiveCardDisplay: RecordingDisplay {
    private let view: LiveTerminalView
    private var lastDrawnSecond = -1
    private var dirty = true
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(output: any TextOutput, color: Bool, size: @escaping () -> (columns: Int, rows: Int)) {
        view = LiveTerminalView(output: output, color: color, size: size)
    }

    var isLive: Bool { true }

    func transcriptChanged() { dirty = true }

    /// Redraws at most 20 times a second.
    func render(_ makeSnapshot: @autoclosure () -> LiveViewSnapshot, force: Bool) {
        guard force || ContinuousClock.now - lastDraw >= .milliseconds(50) else { return }
        let snapshot = makeSnapshot()
        let second = Int(snapshot.elapsedSeconds)
        guard force || dirty || second != lastDrawnSecond else { return }
        view.render(snapshot)
        lastDrawnSecond = second
        dirty = false
        lastDraw = ContinuousClock.now
    }

    func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool) {
        var final = snapshot
        final.interim = nil
        view.render(final)
        view.finish()
    }
}

/// One line per final segment, "[m:ss] text", for pipes and logs.
final class PlainLinesDisplay: RecordingDisplay {
    private let output: any TextOutput

    init(output: any TextOutput) {
        self.output = output
    }

    var isLive: Bool { false }

    func finalAdded(_ segment: TranscriptSegment) {
        output.write("[\(ElapsedTimeFormat.clock(segment.startSeconds))] \(VisibleText.escaped(segment.text))\n")
    }

    func render(_ snapshot: @autoclosure () -> LiveViewSnapshot, force: Bool) {}
    func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool) {}
}

/// A one-line progress bar for `import`: percent, elapsed and time left, redrawn in place.
final class ProgressBarDisplay: RecordingDisplay {
    private let output: any TextOutput
    private let label: String
    private let started = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)
    /// The terminal's width in columns, asked at each draw (a resize is followed).
    private let columns: () -> Int

    init(output: any TextOutput, label: String, columns: @escaping () -> Int = { Terminal.size(fileDescriptor: 2).columns }) {
        self.output = output
        self.label = VisibleText.escaped(label)
        self.columns = columns
    }

    var isLive: Bool { false }

    func render(_ makeSnapshot: @autoclosure () -> LiveViewSnapshot, force: Bool) {
        guard force || ContinuousClock.now - lastDraw >= .milliseconds(200) else { return }
        lastDraw = ContinuousClock.now
        let snapshot = makeSnapshot()
        let wall = elapsedWall
        output.write("\r\u{1B}[K" + ProgressBarText.fitted(columns: columns(), label: label) { label, width in
            ProgressBarText.line(label: label, done: snapshot.transcribedSeconds, total: snapshot.totalSeconds,
                                 wallSeconds: wall, width: width)
        })
    }

    /// The last line: 100% only when the whole file was read; a stopped import keeps the share
    /// it reached (62%), so the bar never claims audio that was not imported. The share counts
    /// audio transcribed, not audio read: decoding is what takes the time.
    func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool) {
        let wall = elapsedWall
        output.write("\r\u{1B}[K" + ProgressBarText.fitted(columns: columns(), label: label) { label, width in
            Self.finalLine(label: label, snapshot, reachedEnd: reachedEnd, wallSeconds: wall, width: width)
        } + "\n")
    }

    static func finalLine(label: String, _ snapshot: LiveViewSnapshot, reachedEnd: Bool, wallSeconds: Double, width: Int = 24) -> String {
        let total = snapshot.totalSeconds ?? snapshot.transcribedSeconds
        return ProgressBarText.line(label: label, done: reachedEnd ? total : snapshot.transcribedSeconds, total: total,
                                    wallSeconds: wallSeconds, width: width, showsTimeLeft: reachedEnd)
    }

    private var elapsedWall: Double {
        let duration = ContinuousClock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Shows nothing while recording.
package final class SilentDisplay: RecordingDisplay {
    package init() {}
    package var isLive: Bool { false }
    package func render(_ snapshot: @autoclosure () -> LiveViewSnapshot, force: Bool) {}
    package func finish(_ snapshot: LiveViewSnapshot, reachedEnd: Bool) {}
}

/// The progress bar's text, pure so tests can check it.
enum ProgressBarText {
    /// The line `line(label, barWidth)` makes, fitted to a terminal `columns` wide with the last
    /// column left free (a line that fills it would wrap, and `\r` would then redraw only its
    /// second row): the bar narrows from 24 down to 8 cells, then the label is cut with "…" (down
    /// to 8 columns), and only then the line's end.
    static func fitted(columns: Int, label: String, _ line: (String, Int) -> String) -> String {
        let room = max(1, columns - 1)
        var width = 24
        var text = line(label, width)
        while TerminalText.columns(of: text) > room, width > 8 {
            width -= 4
            text = line(label, width)
        }
        let over = TerminalText.columns(of: text) - room
        if over > 0 {
            let labelColumns = TerminalText.columns(of: label)
            text = line(TerminalText.prefix(label, width: max(8, labelColumns - over)), width)
        }
        return TerminalText.prefix(text, width: room)
    }

    /// "name  [#########.........]  45%  0:03 elapsed  0:04 left"; no time left until 1% of the
    /// audio, or 10 s of it, is transcribed.
    /// - Parameters:
    ///   - done: seconds of audio transcribed; `total`: seconds in the file, nil when unknown.
    ///   - wallSeconds: wall time since the start, for the estimate of time left.
    ///   - showsTimeLeft: false for the last line of a stopped import, which has no time left.
    static func line(label: String, done: Double, total: Double?, wallSeconds: Double, width: Int = 24, showsTimeLeft: Bool = true) -> String {
        guard let total, total > 0 else {
            return "\(label)  \(ElapsedTimeFormat.clock(done)) of audio  \(ElapsedTimeFormat.clock(wallSeconds)) elapsed"
        }
        let fraction = min(1, max(0, done / total))
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        let line = "\(label)  [\(bar)] \(String(percent).leftPadded(to: 3))%  \(ElapsedTimeFormat.clock(wallSeconds)) elapsed"
        guard showsTimeLeft else { return line + "  stopped" }
        // No estimate from almost nothing: while the first utterance decodes, the share done is a
        // few milliseconds of audio and the time left it gives grows each second (10:44 for 0:08).
        guard fraction >= 0.01 || done >= 10 else { return line }
        let left = wallSeconds * (1 - fraction) / fraction
        return line + "  \(ElapsedTimeFormat.clock(left.rounded(.up))) left"
    }
}
