import Foundation

/// How the library writes dates for people (durations: `ElapsedTimeFormat.clock`; default names:
/// `RecordingName.defaultName`).
public enum LibraryFormat {
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
