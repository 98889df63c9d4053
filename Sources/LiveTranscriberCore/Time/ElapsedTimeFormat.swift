import Foundation

/// Formats elapsed recording time for the Live Activity and its previews.
///
/// Every function takes seconds as a `Double` and never traps: negative values, NaN and
/// infinity read as zero (or, for infinity, as the largest value the format can show).
public enum ElapsedTimeFormat {
    /// The largest whole number of seconds any formatter shows (99,999 hours), so huge inputs stay finite.
    public static let maximumSeconds = 359_999_999

    /// Whole seconds, clamped: negative or NaN is 0, +infinity and huge values are `maximumSeconds`.
    ///
    /// The one rounding rule for every displayed duration and time (the card, `list`, `show`,
    /// saved lines, exports): round to whole milliseconds, then drop the fraction of a second, as
    /// a stopwatch and the system timer on the Lock Screen do. 2.99 s is "0:02" everywhere;
    /// 2.9996 s is "0:03" (it is 3.000 s to the millisecond). See docs/text-and-names.md.
    ///
    /// - Parameter seconds: an elapsed duration in seconds, possibly garbage.
    /// - Returns: whole seconds in `0...maximumSeconds`.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        guard seconds < Double(maximumSeconds) else { return maximumSeconds }
        return Int((seconds * 1000).rounded(.toNearestOrAwayFromZero)) / 1000
    }

    /// The fixed elapsed text shown while paused or stopped, in the style of a system timer.
    ///
    /// `m:ss` under an hour, `h:mm:ss` from one hour: 9 → "0:09", 90 → "1:30", 3599 → "59:59",
    /// 3600 → "1:00:00", 36000 → "10:00:00".
    public static func clock(_ seconds: Double) -> String {
        let total = wholeSeconds(seconds)
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        if hours > 0 {
            return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))"
        }
        return "\(minutes):\(twoDigits(secs))"
    }

    /// A short elapsed time for the compact Dynamic Island, readable past one hour.
    ///
    /// `m:ss` under an hour (309 → "5:09"); hours and minutes from one hour, seconds dropped
    /// (3909, "1:05:09" → "1h05"; 36000 → "10h00").
    public static func compact(_ seconds: Double) -> String {
        let total = wholeSeconds(seconds)
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        if hours > 0 {
            return "\(hours)h\(twoDigits(minutes))"
        }
        return clock(Double(total))
    }

    /// Seconds from `reference` to `now`, never negative.
    ///
    /// A reference date in the future (clock skew between devices or a clock set back) reads 0,
    /// as the system timer would show "0:00" rather than a negative time.
    public static func elapsed(since reference: Date, now: Date) -> Double {
        let interval = now.timeIntervalSince(reference)
        guard interval.isFinite, interval > 0 else { return 0 }
        return interval
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
