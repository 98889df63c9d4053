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

    /// A date a user typed (`list --since`), in `timeZone` unless it names its own zone:
    /// - "2026-11-29" (midnight);
    /// - "2026-11-29 20:41" (what `list` prints) or "2026-11-29T20:41", with optional ":12" seconds;
    /// - full ISO 8601 with a zone: "2026-11-29T20:41:12Z", "…+09:00", "…12.5Z".
    /// - Returns: nil for anything else, including impossible dates ("2026-02-30").
    public static func parseDate(_ text: String, timeZone: TimeZone) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == "T" })
        guard (1...2).contains(parts.count) else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2,
              let year = number(day[0]), let month = number(day[1]), let dayOfMonth = number(day[2]) else { return nil }
        var components = DateComponents(year: year, month: month, day: dayOfMonth, hour: 0, minute: 0, second: 0)
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(time.count), time.allSatisfy({ $0.count == 2 }),
                  let hour = number(time[0]), let minute = number(time[1]), hour < 24, minute < 60 else { return nil }
            let second = time.count == 3 ? number(time[2]) : 0
            guard let second, second < 60 else { return nil }
            components.hour = hour
            components.minute = minute
            components.second = second
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard (1...12).contains(month), let date = calendar.date(from: components),
              calendar.component(.day, from: date) == dayOfMonth else { return nil }
        return date
    }

    private static func number(_ text: Substring) -> Int? {
        text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) ? Int(text) : nil
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
