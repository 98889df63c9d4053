import Foundation

/// The rules for a recording's name, shared by every command and both stores.
///
/// A name is one line of at most `maximumLength` characters, trimmed, with no control, line
/// separator or invisible format character (bidirectional overrides and isolates, zero-width
/// space, soft hyphen, BOM: anything `VisibleText.isHidden` would escape), so that a name always
/// reads as what it is. Names typed by a user are refused when they break a rule (`validated`);
/// names made from file names are cleaned instead (`cleaned`).
public enum RecordingName {
    /// Characters a name may have at most.
    public static let maximumLength = 200

    /// `text` trimmed, or why it cannot be a name.
    /// - Throws: `LibraryError.invalid` for an empty name, a name over 200 characters, or one
    ///   with a line break, control or invisible format character.
    public static func validated(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw LibraryError.invalid("a recording's name cannot be empty.") }
        guard !name.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            throw LibraryError.invalid("a recording's name must be one line.")
        }
        if let hidden = firstHidden(in: name) {
            throw LibraryError.invalid("a recording's name cannot contain control or invisible formatting characters (found \(hidden)).")
        }
        guard name.count <= maximumLength else {
            throw LibraryError.invalid("a recording's name is longer than \(maximumLength) characters.")
        }
        return name
    }

    /// A name made from `text` (a file name): hidden characters become spaces, runs of white space
    /// one space, trimmed, cut to 200 characters; `fallback` when nothing is left.
    public static func cleaned(_ text: String, fallback: String = "Imported audio") -> String {
        var visible = ""
        for character in text {
            let hidden = character.unicodeScalars.contains { VisibleText.isHidden($0, in: character) }
            visible.append(hidden ? " " : character)
        }
        let name = String(visible.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(maximumLength))
            .trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? fallback : name
    }

    /// The name a recording gets when the user gives none: "Recording 2026-11-29 20:41", in `timeZone`.
    public static func defaultName(createdAt: Date, timeZone: TimeZone) -> String {
        "Recording " + LibraryFormat.dateTime(createdAt, timeZone: timeZone)
    }

    /// The first hidden character of `text` as "U+202E", or nil.
    static func firstHidden(in text: String) -> String? {
        for character in text {
            if let scalar = character.unicodeScalars.first(where: { VisibleText.isHidden($0, in: character) }) {
                return "U+" + String(format: "%04X", scalar.value)
            }
        }
        return nil
    }
}
