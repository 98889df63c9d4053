import Foundation

/// A saved recording whose audio file is gone (removed by hand from its folder, or lost with a
/// disk): its metadata and transcript are still there, so it lists, shows, searches and exports,
/// but it cannot be played or transcribed again. Every front end says so with `clause`: `show`'s
/// Audio line, `import` and `serve`'s 409 for the same audio (`LibraryError.alreadyInLibrary`),
/// `retranscribe`, and `serve`'s recording, audio and transcribe-again answers.
///
/// A store says which recordings this is (`RecordingStore.isAudioMissing`).
public struct MissingAudioFile: Error, Equatable, CustomStringConvertible {
    /// The one sentence, after the recording is named: "its audio file is missing, so it cannot
    /// be played or transcribed again".
    public static let clause = "its audio file is missing, so it cannot be played or transcribed again"

    /// The recording's id.
    public var id: String
    /// The recording's name.
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// "ID 'NAME': its audio file is missing, so it cannot be played or transcribed again".
    public var description: String { "\(id) '\(VisibleText.escaped(name))': \(Self.clause)" }
}

extension RecordingStore {
    /// The audio file of saved recording `recording`, which is there.
    /// - Throws: `MissingAudioFile` when it is gone (`isAudioMissing`); what `audioFile(of:)` throws.
    public func existingAudioFile(of recording: Recording) throws -> URL {
        let file = try audioFile(of: recording.id)
        if isAudioMissing(recording.id) { throw MissingAudioFile(id: recording.id, name: recording.name) }
        return file
    }
}
