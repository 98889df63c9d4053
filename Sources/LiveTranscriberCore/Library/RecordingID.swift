import Foundation

/// Recording ids: "yyyyMMdd-HHmmss-xxxx", the start time in UTC and four hex digits, so ids sort
/// by time and two recordings started in the same second differ; which ids are safe, and how a
/// user's reference to a recording is resolved, for every store.
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

    /// True when `reference` means the newest recording: "latest" in any case, spaces around ignored.
    public static func isLatest(_ reference: String) -> Bool {
        reference.trimmingCharacters(in: .whitespaces).lowercased() == "latest"
    }

    /// True for an id that can name one folder: not empty, no "/", no NUL, no leading ".", at most 200 bytes.
    public static func isSafe(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && !id.contains("\0") && id.utf8.count <= 200
    }

    /// The recording `reference` names, by the one lookup rule: surrounding spaces are ignored;
    /// "latest" (any case) is the newest recording; an exact id wins; otherwise an id prefix must
    /// match exactly one recording.
    /// - Parameters:
    ///   - latest: the newest recording, nil when there is none.
    ///   - exact: the recording with this id, if any.
    ///   - prefixed: the ids starting with a prefix, sorted.
    /// - Throws: `LibraryError.notFound`, or `.ambiguous` with every matching id.
    public static func resolve(
        _ reference: String, latest: () throws -> Recording?, exact: (String) throws -> Recording?,
        prefixed: (String) throws -> [String]
    ) throws -> Recording {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        if isLatest(reference) {
            if let newest = try latest() { return newest }
            throw LibraryError.notFound("latest")
        }
        if let found = try exact(reference) { return found }
        let matches = reference.isEmpty ? [] : try prefixed(reference)
        if matches.count == 1, let only = try exact(matches[0]) { return only }
        if matches.count > 1 { throw LibraryError.ambiguous(reference, matches: matches) }
        throw LibraryError.notFound(reference)
    }
}
