import Foundation

/// The rules for tags, shared by `--tags`, `tag --add/--remove`, `list --tag`, and both stores.
///
/// - A comma separates tags everywhere: `--tags a,b`, `tag --add "a,b"` and a store given "a,b"
///   all mean the two tags `a` and `b`, so no stored tag ever holds a comma.
/// - Each tag is trimmed; empty ones are dropped; at most `maximumLength` characters; no control
///   or invisible format character (the rule `RecordingName` uses).
/// - Tags are one tag regardless of case (`TextFolding.caseKey`: "Fußball" = "FUSSBALL"); the
///   first spelling is kept, and the order is the user's.
public enum RecordingTags {
    /// Characters a tag may have at most.
    public static let maximumLength = 100

    /// The tags in `inputs`: each split at commas, trimmed, empty ones dropped, one of each
    /// regardless of case, order kept.
    /// - Throws: `LibraryError.invalid` for a tag over 100 characters or with a hidden character.
    public static func normalized(_ inputs: [String]) throws -> [String] {
        var seen = Set<String>()
        var tags: [String] = []
        for input in inputs {
            for piece in input.split(separator: ",", omittingEmptySubsequences: false) {
                let tag = piece.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !tag.isEmpty else { continue }
                try check(tag)
                if seen.insert(TextFolding.caseKey(tag)).inserted { tags.append(tag) }
            }
        }
        return tags
    }

    /// The tags in `inputs` by the same rules, but never failing: hidden characters become spaces
    /// and long tags are cut (`RecordingName.cleaned`). For saving what was already accepted, so a
    /// recording is never lost over a tag.
    public static func cleaned(_ inputs: [String]) -> [String] {
        let pieces = inputs.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String(RecordingName.cleaned(String($0), fallback: "").prefix(maximumLength)) }
        return (try? normalized(pieces)) ?? []
    }

    /// True when `lhs` and `rhs` are the same tag (case folded).
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        TextFolding.caseKey(lhs.trimmingCharacters(in: .whitespaces)) == TextFolding.caseKey(rhs.trimmingCharacters(in: .whitespaces))
    }

    /// `current` with `adding` appended and `removing` taken out (both split at commas; a tag both
    /// added and removed is removed).
    /// - Throws: `LibraryError.invalid` as `normalized` does.
    public static func changed(_ current: [String], adding: [String], removing: [String]) throws -> [String] {
        let removed = Set(try normalized(removing).map(TextFolding.caseKey))
        return try normalized(current + adding).filter { !removed.contains(TextFolding.caseKey($0)) }
    }

    /// Every tag the recordings have, one of each regardless of case (the first spelling met),
    /// sorted as a person reads them: by `TextFolding.searchKey` ("Ünï" among the u's, not after
    /// "x"), ties by `TextFolding.caseKey` ("Cafe" before "Café"): the choices of a tag filter.
    public static func all(in recordings: [Recording]) -> [String] {
        var seen: [String: String] = [:]
        for recording in recordings {
            for tag in recording.tags where seen[TextFolding.caseKey(tag)] == nil { seen[TextFolding.caseKey(tag)] = tag }
        }
        return seen.map { (reading: TextFolding.searchKey($0.key), key: $0.key, tag: $0.value) }
            .sorted { ($0.reading, $0.key) < ($1.reading, $1.key) }.map(\.tag)
    }

    /// Tags as one line for people: "a, b".
    public static func joined(_ tags: [String]) -> String { tags.joined(separator: ", ") }

    private static func check(_ tag: String) throws {
        if let problem = RecordingName.problem(in: tag, maximumLength: maximumLength) {
            throw LibraryError.invalid(problem.message(subject: "a tag") + ".")
        }
    }
}
