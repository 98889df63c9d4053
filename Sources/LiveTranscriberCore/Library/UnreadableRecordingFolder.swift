import Foundation

/// A saved recording whose folder the library holds but cannot read (its metadata.json or
/// transcript.json is damaged), so `list` and `search` leave it out (`RecordingStore.unreadableFolders`).
///
/// The folder itself is left as it is: fixing or removing it is the user's choice.
public struct UnreadableRecordingFolder: Sendable, Equatable, CustomStringConvertible {
    /// The folder's name under `recordings/` (the recording's id).
    public var id: String
    /// Why it could not be read: `LibraryError.corrupt` with the file and the parser's reason.
    public var problem: LibraryError

    public init(id: String, problem: LibraryError) {
        self.id = id
        self.problem = problem
    }

    /// "recordings/<id>: <why>", the line `reindex` prints after "warning: skipped ".
    public var description: String { "recordings/\(id): \(problem)" }

    /// What `resolve` throws for a reference naming this folder: the problem, with a sentence
    /// saying the recording exists but is left out until the file is fixed (for `.corrupt`; any
    /// other problem as it is).
    public var resolveError: LibraryError {
        guard case .corrupt(let path, let reason) = problem else { return problem }
        let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return .corrupt(path: path, reason: "\(sentence). Recording \(id) exists, but list, search and other commands leave it out "
            + "until the file is fixed or restored; then run 'livetranscriber reindex'")
    }

    /// The one folder among `names` that `reference` names for `resolve`: `reference` itself when
    /// it is one of them, else the only name that starts with it; nil for none, several, or an
    /// empty reference.
    public static func named(_ reference: String, among names: [String]) -> String? {
        guard !reference.isEmpty else { return nil }
        if names.contains(reference) { return reference }
        let matches = names.filter { $0.hasPrefix(reference) }
        return matches.count == 1 ? matches[0] : nil
    }
}
