import Foundation
import LiveTranscriberCore

/// Draws each Live Activity presentation as an SVG document, for previews on machines without
/// SwiftUI. Pure string building; every text is XML-escaped.
///
/// Layouts follow seed 000: status block with dot top left, fixed-width timer block top right,
/// the newest final transcript in the middle (2 lines), language and segment count in the
/// footer, a red stop button while recording. Sizes are points, drawn at 1 px per point.
public enum ActivitySVGRenderer {
    /// A drawing size in points.
    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
    }

    /// Lock Screen card: 364 × 160.
    public static let lockScreenSize = Size(width: 364, height: 160)
    /// Expanded Dynamic Island: 371 × 160.
    public static let expandedIslandSize = Size(width: 371, height: 160)
    /// Compact Dynamic Island, the whole pill: 126 × 37.
    public static let compactIslandSize = Size(width: 126, height: 37)
    /// Minimal Dynamic Island: 37 × 37.
    public static let minimalIslandSize = Size(width: 37, height: 37)

    static let textFont = "'Reddit Sans', 'DejaVu Sans', Helvetica, Arial, sans-serif"
    static let timerFont = "'SF Mono', 'DejaVu Sans Mono', Menlo, monospace"
    static let secondaryText = "#EBEBF5"
    static let tertiaryText = "#8E8E93"
    static let stopRed = ActivityStatusStyle.DotColor.red.hex

    /// The Lock Screen card.
    /// - Parameter elapsedSeconds: what the ticking timer shows (ignored when fixed).
    public static func lockScreen(_ presentation: LockScreenPresentation, elapsedSeconds: Double) -> String {
        let size = lockScreenSize
        var body = "<rect width=\"\(size.width)\" height=\"\(size.height)\" rx=\"22\" fill=\"#1C1C1E\"/>\n"
        body += statusBlock(presentation.status, x: 16, y: 16)
        body += timerBlock(presentation.timer.text(elapsedSeconds: elapsedSeconds), right: size.width - 16, y: 12)
        if presentation.isTranscriptHidden {
            body += text(LockScreenPresentation.hiddenTranscriptText, x: 16, y: 74, size: 14,
                         fill: tertiaryText, extra: " font-style=\"italic\"")
        } else {
            body += transcriptLines(presentation.transcript ?? "", x: 16, firstBaseline: 66, columns: 40)
        }
        body += metricBlock(label: "LANGUAGE", value: presentation.language, x: 16, y: 118)
        body += metricBlock(label: "SEGMENTS", value: String(presentation.segmentCount), x: 120, y: 118)
        if presentation.stopAction != nil {
            body += stopButton(right: size.width - 16, y: 114)
        }
        return document(size, title: "Lock Screen: \(presentation.status.text)", body: body)
    }

    /// The expanded Dynamic Island.
    public static func expandedIsland(_ presentation: ExpandedIslandPresentation, elapsedSeconds: Double) -> String {
        let size = expandedIslandSize
        var body = "<rect width=\"\(size.width)\" height=\"\(size.height)\" rx=\"44\" fill=\"#000000\"/>\n"
        body += statusBlock(presentation.status, x: 24, y: 16)
        body += timerBlock(presentation.timer.text(elapsedSeconds: elapsedSeconds), right: size.width - 24, y: 12)
        body += transcriptLines(presentation.transcript, x: 24, firstBaseline: 70, columns: 38, fontSize: 14)
        body += metricBlock(label: "LANGUAGE", value: presentation.language, x: 24, y: 116)
        body += metricBlock(label: "SEGMENTS", value: String(presentation.segmentCount), x: 124, y: 116)
        if presentation.stopAction != nil {
            body += stopButton(right: size.width - 24, y: 112)
        }
        return document(size, title: "Dynamic Island, expanded: \(presentation.status.text)", body: body)
    }

    /// The compact Dynamic Island: glyph leading, compact elapsed time trailing.
    public static func compactIsland(_ presentation: CompactIslandPresentation, elapsedSeconds: Double) -> String {
        let size = compactIslandSize
        var body = "<rect width=\"\(size.width)\" height=\"\(size.height)\" rx=\"18.5\" fill=\"#000000\"/>\n"
        body += glyph(presentation.glyph, color: presentation.dotColor, centerX: 18.5, centerY: 18.5, scale: 1)
        body += text(presentation.elapsedText(elapsedSeconds: elapsedSeconds), x: Double(size.width) - 14, y: 23.5,
                     size: 14, fill: presentation.dotColor.hex, font: timerFont,
                     extra: " font-weight=\"600\" text-anchor=\"end\"")
        return document(size, title: "Dynamic Island, compact", body: body)
    }

    /// The minimal Dynamic Island: the status glyph alone.
    public static func minimalIsland(_ presentation: MinimalIslandPresentation) -> String {
        let size = minimalIslandSize
        var body = "<circle cx=\"18.5\" cy=\"18.5\" r=\"18.5\" fill=\"#000000\"/>\n"
        body += glyph(presentation.glyph, color: presentation.dotColor, centerX: 18.5, centerY: 18.5, scale: 1)
        return document(size, title: "Dynamic Island, minimal", body: body)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped for XML text and attribute values; control
    /// characters XML 1.0 cannot hold are dropped.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Pieces

    private static func document(_ size: Size, title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(size.width)" height="\(size.height)" \
        viewBox="0 0 \(size.width) \(size.height)">
        <title>\(escape(title))</title>
        \(body)</svg>

        """
    }

    private static func statusBlock(_ status: ActivityStatusStyle, x: Int, y: Int) -> String {
        "<g id=\"status\">\n"
            + "<circle cx=\"\(x + 6)\" cy=\"\(y + 12)\" r=\"9\" fill=\"\(status.dotColor.hex)\" fill-opacity=\"0.25\"/>\n"
            + "<circle cx=\"\(x + 6)\" cy=\"\(y + 12)\" r=\"5\" fill=\"\(status.dotColor.hex)\"/>\n"
            + text(status.text, x: Double(x + 22), y: Double(y + 17), size: 15, fill: "#FFFFFF", extra: " font-weight=\"600\"")
            + "</g>\n"
    }

    private static func timerBlock(_ value: String, right: Int, y: Int) -> String {
        // Fixed width for up to "99:59:59"; longer times get a smaller font rather than a wider block.
        let width = 100
        let x = right - width
        let fontSize = value.count > 8 ? 13 : 17
        return "<g id=\"timer\">\n"
            + "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"32\" rx=\"9\" fill=\"#2C2C2E\"/>\n"
            + text(value, x: Double(x + width / 2), y: Double(y + 22), size: fontSize, fill: "#FFFFFF", font: timerFont,
                   extra: " font-weight=\"600\" text-anchor=\"middle\"")
            + "</g>\n"
    }

    private static func transcriptLines(_ transcript: String, x: Int, firstBaseline: Int, columns: Int, fontSize: Int = 15) -> String {
        let flat = transcript.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
        var rows = TerminalText.wrap(flat, width: columns)
        if rows.count > 2 {
            rows = Array(rows.suffix(2))
            rows[0] = TerminalText.suffix(String(PresentationText.ellipsis) + rows[0], width: columns)
        }
        var result = "<g id=\"transcript\">\n"
        for (index, row) in rows.enumerated() {
            result += text(row, x: Double(x), y: Double(firstBaseline + index * (fontSize + 6)), size: fontSize, fill: secondaryText)
        }
        return result + "</g>\n"
    }

    private static func metricBlock(label: String, value: String, x: Int, y: Int) -> String {
        text(label, x: Double(x), y: Double(y), size: 10, fill: tertiaryText, extra: " font-weight=\"600\" letter-spacing=\"0.5\"")
            + text(TerminalText.prefix(value, width: 14), x: Double(x), y: Double(y + 20), size: 15, fill: "#FFFFFF",
                   extra: " font-weight=\"600\"")
    }

    private static func stopButton(right: Int, y: Int) -> String {
        let width = 86
        let x = right - width
        return "<g id=\"stop\">\n"
            + "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"32\" rx=\"16\" fill=\"\(stopRed)\"/>\n"
            + "<rect x=\"\(x + 18)\" y=\"\(y + 11)\" width=\"10\" height=\"10\" rx=\"2\" fill=\"#FFFFFF\"/>\n"
            + text("Stop", x: Double(x + 36), y: Double(y + 21), size: 15, fill: "#FFFFFF", extra: " font-weight=\"600\"")
            + "</g>\n"
    }

    private static func glyph(
        _ glyph: ActivityStatusStyle.Glyph, color: ActivityStatusStyle.DotColor, centerX: Double, centerY: Double, scale: Double
    ) -> String {
        switch glyph {
        case .recording:
            return "<circle id=\"glyph\" cx=\"\(centerX)\" cy=\"\(centerY)\" r=\"\(7 * scale)\" fill=\"\(color.hex)\"/>\n"
        case .paused:
            let barWidth = 4 * scale, barHeight = 13 * scale, gap = 3 * scale
            let top = centerY - barHeight / 2
            return "<g id=\"glyph\" fill=\"\(color.hex)\">"
                + "<rect x=\"\(centerX - gap / 2 - barWidth)\" y=\"\(top)\" width=\"\(barWidth)\" height=\"\(barHeight)\" rx=\"1\"/>"
                + "<rect x=\"\(centerX + gap / 2)\" y=\"\(top)\" width=\"\(barWidth)\" height=\"\(barHeight)\" rx=\"1\"/></g>\n"
        case .stopped:
            let side = 12 * scale
            return "<rect id=\"glyph\" x=\"\(centerX - side / 2)\" y=\"\(centerY - side / 2)\" width=\"\(side)\" "
                + "height=\"\(side)\" rx=\"2.5\" fill=\"\(color.hex)\"/>\n"
        }
    }

    private static func text(
        _ value: String, x: Double, y: Double, size: Int, fill: String, font: String = textFont, extra: String = ""
    ) -> String {
        "<text x=\"\(number(x))\" y=\"\(number(y))\" font-family=\"\(font)\" font-size=\"\(size)\" fill=\"\(fill)\"\(extra)>"
            + escape(value) + "</text>\n"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
