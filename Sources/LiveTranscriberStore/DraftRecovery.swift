import Foundation
import LiveTranscriberCore

/// What a recovery wants the user to know about one draft it recovered (`LibraryStore.recoveryNotes`).
public enum DraftRecoveryNote: Sendable, Equatable, CustomStringConvertible {
    /// Its `draft.json` could not be read: the name, tags and language were lost, and the audio
    /// (`audioSeconds` seconds) and `segments` final segments were saved under the default name.
    case damagedManifest(audioSeconds: Double, segments: Int)

    public var description: String {
        switch self {
        case .damagedManifest(let seconds, let segments):
            "its draft.json was damaged, so its name, tags and language were lost; "
                + "the audio (\(ElapsedTimeFormat.clock(seconds))) and \(Plural.count(segments, "final segment")) were recovered under the default name"
        }
    }
}

/// Why one draft could not be recovered (`LibraryStore.recoveryProblems`): it stays in `drafts/`
/// and the next recovery tries again.
public struct DraftRecoveryProblem: Error, CustomStringConvertible {
    /// The error met while recovering it (`LibraryError`, `FileSystemError`, `SQLiteError`).
    public let error: any Error

    public var description: String { String(describing: error) }
}
