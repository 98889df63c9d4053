import Foundation
import LiveTranscriberCore

/// A folder under `recordings/` that `reindex()` could not read, so it is not in the index.
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
}
