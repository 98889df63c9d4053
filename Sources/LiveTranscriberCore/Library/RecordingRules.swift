import Foundation

/// The rules for what a recording's name and tags may be, shared by every store.
public enum RecordingRules {
    /// `name` trimmed of surrounding spaces and newlines.
    /// - Throws: `LibraryError.invalid` when it is empty or more than one line.
    public static func name(_ name: String) throws -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw LibraryError.invalid("a recording's name cannot be empty.") }
        guard !name.contains(where: \.isNewline) else { throw LibraryError.invalid("a recording's name must be one line.") }
        return name
    }

    /// Trimmed, empty ones dropped, one of each regardless of case (the first spelling kept), order kept.
    public static func tags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// `tags` with `adding` added and `removing` removed, compared without regard to case; a tag
    /// both added and removed is removed.
    public static func changedTags(_ tags: [String], adding: [String], removing: [String]) -> [String] {
        let removed = Set(removing.map { $0.lowercased() })
        return Self.tags((tags + adding).filter { !removed.contains($0.lowercased()) })
    }
}

extension RecordingRules {
    /// Audio formats a recording can be stored in.
    public static let audioFormats = ["wav", "flac", "opus"]

    /// True for an id that names one folder: not empty, no "/", no NUL, no leading ".", at most 200 bytes.
    public static func isSafeID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && !id.contains("\0") && id.utf8.count <= 200
    }

    /// Checks what a new draft is given.
    /// - Throws: `LibraryError.invalid` for an unsafe id or an unknown audio format.
    public static func checkDraft(id: String, audio: AudioDescription) throws {
        guard isSafeID(id) else { throw LibraryError.invalid("'\(id)' cannot be a recording id.") }
        guard audioFormats.contains(audio.format) else {
            throw LibraryError.invalid("unknown audio format '\(audio.format)'; use wav, flac or opus.")
        }
    }

    /// The moment a draft started, as stored: whole seconds (JSON keeps no fraction).
    public static func draftStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
