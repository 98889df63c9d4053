import Foundation

/// Formats seconds as subtitle timestamps.
///
/// A time is rounded once to whole milliseconds and only then split into hours, minutes, seconds
/// and milliseconds, so 0.9995 s is `00:00:01,000`, never `00:00:00,1000`. Hours have at least two
/// digits and never wrap (100 h is `100:00:00,000`). NaN, infinities and negative times never trap:
/// they format as zero (NaN, negative) or as the largest representable time (+infinity).
public enum SubtitleTimestamp {
    /// The largest time formatted, in milliseconds: about 292 million years, far below `Int.max`.
    static let maximumMilliseconds = 9_223_372_036_854_000

    /// Whole milliseconds for `seconds`, rounded half away from zero; 0 for NaN and negatives.
    public static func milliseconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        let value = (seconds * 1000).rounded(.toNearestOrAwayFromZero)
        guard value < Double(maximumMilliseconds) else { return maximumMilliseconds }
        return Int(value)
    }

    /// `HH:MM:SS,mmm` (SubRip).
    public static func srt(_ seconds: Double) -> String { format(seconds, separator: ",") }

    /// `HH:MM:SS.mmm` (WebVTT).
    public static func vtt(_ seconds: Double) -> String { format(seconds, separator: ".") }

    /// `HH:MM:SS` (plain text and Markdown), whole seconds by the rule every displayed time uses
    /// (`ElapsedTimeFormat.wholeSeconds`).
    public static func clock(_ seconds: Double) -> String {
        let parts = split(ElapsedTimeFormat.wholeSeconds(seconds) * 1000)
        return "\(pad(parts.hours, 2)):\(pad(parts.minutes, 2)):\(pad(parts.seconds, 2))"
    }

    static func format(_ seconds: Double, separator: String) -> String {
        let parts = split(milliseconds(seconds))
        return "\(pad(parts.hours, 2)):\(pad(parts.minutes, 2)):\(pad(parts.seconds, 2))\(separator)\(pad(parts.milliseconds, 3))"
    }

    static func split(_ total: Int) -> (hours: Int, minutes: Int, seconds: Int, milliseconds: Int) {
        (total / 3_600_000, total / 60_000 % 60, total / 1000 % 60, total % 1000)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
