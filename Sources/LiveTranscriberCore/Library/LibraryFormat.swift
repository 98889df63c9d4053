import Foundation

/// How the library writes times, durations and default names for people.
public enum LibraryFormat {
    /// A time in a recording as "m:ss" (or "h:mm:ss" from one hour): 62.9 -> "1:02".
    /// Seconds are truncated, as a player's clock shows them; negative and NaN values are 0:00.
    /// The same clock the Live Activity shows (`ElapsedTimeFormat.clock`).
    public static func clock(_ seconds: Double) -> String {
        ElapsedTimeFormat.clock(seconds)
    }

    /// The name a recording gets when the user gives none: "Recording 2026-11-29 20:41",
    /// in `timeZone`.
    public static func defaultName(createdAt: Date, timeZone: TimeZone) -> String {
        "Recording " + dateTime(createdAt, timeZone: timeZone)
    }

    /// "2026-11-29 20:41" in `timeZone`.
    public static func dateTime(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return "\(parts.year ?? 0)-" + twoDigits(parts.month ?? 0) + "-" + twoDigits(parts.day ?? 0)
            + " " + twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
