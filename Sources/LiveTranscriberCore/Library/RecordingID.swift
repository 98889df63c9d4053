import Foundation

/// Recording ids and how a user's reference to one is resolved, for every store.
public enum RecordingID {
    /// A new id for a recording started at `date`: "yyyyMMdd-HHmmss-xxxx" in UTC with four random
    /// hex digits, so ids sort by time and two recordings started in the same second differ.
    public static func new(date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func digits(_ value: Int?, _ count: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let random = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        return digits(c.year, 4) + digits(c.month, 2) + digits(c.day, 2) + "-" + digits(c.hour, 2) + digits(c.minute, 2)
            + digits(c.second, 2) + "-" + String(repeating: "0", count: 4 - random.count) + random
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
        if reference.lowercased() == "latest" {
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
