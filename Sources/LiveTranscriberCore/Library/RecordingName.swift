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

    /// Why a text cannot be a name or a tag.
    public enum Problem: Sendable, Equatable {
        case empty
        case multipleLines
        /// A control or invisible format character, as "U+202E".
        case hiddenCharacter(String)
        case tooLong(maximum: Int)

        /// The problem as a sentence about `subject` ("--name", "a recording's name"), without a final period.
        public func message(subject: String) -> String {
            switch self {
            case .empty: "\(subject) cannot be empty"
            case .multipleLines: "\(subject) must be one line"
            case .hiddenCharacter(let code): "\(subject) cannot contain control or invisible formatting characters (found \(code))"
            case .tooLong(let maximum): "\(subject) is longer than \(maximum) characters"
            }
        }
    }

    /// What is wrong with `text` (trimmed) as a name, or nil when it is a valid name.
    public static func problem(in text: String, maximumLength: Int = maximumLength) -> Problem? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .empty }
        if name.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return .multipleLines
        }
        if let hidden = firstHidden(in: name) { return .hiddenCharacter(hidden) }
        if name.count > maximumLength { return .tooLong(maximum: maximumLength) }
        return nil
    }

    /// `text` trimmed, or why it cannot be a name.
    /// - Throws: `LibraryError.invalid` for an empty name, a name over 200 characters, or one
    ///   with a line break, control or invisible format character.
    public static func validated(_ text: String) throws -> String {
        if let problem = problem(in: text) {
            throw LibraryError.invalid(problem.message(subject: "a recording's name") + ".")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A name the user may leave blank (the save sheet, the web page's record form): nil for none
    /// or for white space only, when the recording gets its default name (`defaultName`); else
    /// `text` validated.
    /// - Throws: as `validated(_:)`.
    public static func validatedUnlessBlank(_ text: String?) throws -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return try validated(text)
    }

    /// A name made from `text` (a file name, a draft's or a summary's text): terminal escape
    /// sequences are removed whole (`VisibleText.withoutEscapeSequences`: "evil\u{1B}[31m" gives
    /// "evil", not "evil [31m"), other hidden characters become spaces, runs of white space one
    /// space, trimmed, cut to 200 characters; `fallback` when nothing is left. Tags made from
    /// outside text go through here too (`RecordingTags.cleaned`).
    public static func cleaned(_ text: String, fallback: String = "Imported audio") -> String {
        var visible = ""
        for character in VisibleText.withoutEscapeSequences(text) {
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
