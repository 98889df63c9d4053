import Foundation

/// Why a name or tag given by a user cannot be stored.
public enum RecordingTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is empty or only white space.
    case emptyName
    /// The name or tag holds a line break or another control character.
    case controlCharacters(field: Field)
    /// The name is over `RecordingText.maximumNameLength`, the tag over `maximumTagLength`.
    case tooLong(field: Field, limit: Int)

    /// Which value was wrong.
    public enum Field: String, Sendable, Equatable {
        case name, tag
    }

    public var description: String {
        switch self {
        case .emptyName: "cannot be empty"
        case .controlCharacters: "must be one line without control characters"
        case .tooLong(_, let limit): "is longer than \(limit) characters"
        }
    }
}

/// The rules for the names and tags people type or that come from file names: the same for the
/// command line's options, the app's save sheet and import, so a library is the same wherever it
/// was made.
public enum RecordingText {
    /// Characters (grapheme clusters) a name may have.
    public static let maximumNameLength = 200
    /// Characters (grapheme clusters) a tag may have.
    public static let maximumTagLength = 100
    /// The name of an import whose file name leaves nothing.
    public static let importedFallbackName = "Imported audio"

    /// A name typed by a user, trimmed.
    /// - Throws: `RecordingTextError` when it is empty, holds a control character (a line break)
    ///   or is longer than 200 characters.
    public static func checkedName(_ text: String) throws(RecordingTextError) -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .emptyName }
        guard !hasControlCharacters(name) else { throw .controlCharacters(field: .name) }
        guard name.count <= maximumNameLength else { throw .tooLong(field: .name, limit: maximumNameLength) }
        return name
    }

    /// A name made from a file name (without its extension): control characters become spaces,
    /// runs of white space one space, at most 200 characters; "Imported audio" when nothing is left.
    public static func name(fromFileName fileName: String) -> String {
        let scalars = fileName.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let words = String(scalars).split(whereSeparator: { $0.isWhitespace })
        let name = String(words.joined(separator: " ").prefix(maximumNameLength))
        return name.isEmpty ? importedFallbackName : name
    }

    /// Tags typed as one comma-separated line: "a, b,,a" → ["a", " b", "", "a"]. The library
    /// trims them and drops empty ones and repeats when it stores them.
    /// - Throws: `RecordingTextError` for a tag with a control character or over 100 characters.
    public static func tags(fromList text: String) throws(RecordingTextError) -> [String] {
        let tags = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for tag in tags { try checkTag(tag) }
        return tags
    }

    /// - Throws: `RecordingTextError` for a tag with a control character or over 100 characters.
    public static func checkTag(_ tag: String) throws(RecordingTextError) {
        if hasControlCharacters(tag) { throw .controlCharacters(field: .tag) }
        if tag.count > maximumTagLength { throw .tooLong(field: .tag, limit: maximumTagLength) }
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension RecordingText {
    /// Tags as the library stores them: trimmed, empty ones dropped, one of each regardless of
    /// case (the first spelling kept), order kept.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }
}
