import Foundation

/// Recording ids: "yyyyMMdd-HHmmss-xxxx", the start time in UTC and four hex digits, so ids sort
/// by time and two recordings started in the same second differ.
public enum RecordingID {
    /// A new id for a recording started at `date`, with four random hex digits.
    public static func new(date: Date) -> String {
        make(date: date, suffix: String(format: "%04x", UInt16.random(in: 0...UInt16.max)))
    }

    /// The id for `date` with the given suffix (four hex digits in `new(date:)`).
    public static func make(date: Date, suffix: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + "-" + two(c.hour) + two(c.minute) + two(c.second) + "-" + suffix
    }
}
