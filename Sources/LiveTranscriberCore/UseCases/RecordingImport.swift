import Foundation

/// Importing one audio file into the library, the way every front end does it (the command
/// line's `import`, the iPhone app's Import button, the web page's upload).
///
/// Two steps around the recording engine: `init` names the recording and refuses a file whose
/// audio is already in the library before anything is transcribed; `engineSettings` gives the
/// engine what the save needs (the file's digest, the duplicate check made again under the
/// library's write lock, a draft that no crash keeps: an import can simply be run again).
///
/// ```swift
/// let plan = try RecordingImport(file: url, refusingDuplicates: !again, library: store,
///                                contentDigest: { try AudioDigest.of(path: $0.path) })
/// let engine = RecordingEngine(sourceFormat: source.format,
///                              settings: plan.engineSettings(language: "en-US"), services: services)
/// ```
public struct RecordingImport: Sendable, Equatable {
    /// The audio file imported.
    public var file: URL
    /// The recording's name: the file's name without its extension, by `RecordingName.cleaned`
    /// (a blank one gives the default name when saved).
    public var name: String
    /// What the save checks and keeps; nil when the platform could not compute the file's digest
    /// (the import then goes on and the saved audio's digest is kept).
    public var imported: ImportedAudio?

    /// Plans the import of `file`.
    /// - Parameters:
    ///   - stem: the file's name without its extension as the user knows it, when `file` does not
    ///     carry it (a file opened by its bytes, a pipe read into a temporary file); nil for
    ///     `file`'s own.
    ///   - refusingDuplicates: false to import audio the library already has once more (`--again`).
    ///   - library: where recordings with the same audio are looked up.
    ///   - contentDigest: the platform's digest of the file (`AudioContentDigest`'s rule); nil
    ///     when it has none; it throws when the file cannot be read.
    /// - Throws: `LibraryError.readOnly` when the library cannot be changed (`writeBlock`), before
    ///   the file is read; `LibraryError.alreadyInLibrary` (with the existing recording's id and name, and whether its audio file is missing) when
    ///   `refusingDuplicates` and a recording of the same audio is in the library; whatever
    ///   `contentDigest` or the library's lookup throws.
    public init(
        file: URL, stem: String? = nil, refusingDuplicates: Bool, library: some RecordingStore,
        contentDigest: (URL) throws -> String?
    ) throws {
        try library.checkCanBeChanged()
        self.file = file
        name = Self.name(fromStem: stem ?? file.deletingPathExtension().lastPathComponent)
        imported = try contentDigest(file).map { ImportedAudio(digest: $0, refusingDuplicates: refusingDuplicates) }
        if let imported, refusingDuplicates, let existing = try library.recordings(withAudioDigest: imported.digest).first {
            throw LibraryError.alreadyInLibrary(id: existing.id, name: existing.name, audioMissing: library.isAudioMissing(existing.id))
        }
    }

    /// The name an imported file gets: its name without the extension (`stem`), cleaned by the
    /// one name rule (`RecordingName.cleaned`).
    public static func name(fromStem stem: String) -> String {
        RecordingName.cleaned(stem)
    }

    /// The name importing `file` gives: `name(fromStem:)` of its last path component without the extension.
    public static func name(of file: URL) -> String {
        name(fromStem: file.deletingPathExtension().lastPathComponent)
    }

    /// The settings of the engine run that transcribes the file: named after it, with the given
    /// tags and stored format, a draft no crash keeps, and the save's duplicate check.
    public func engineSettings(
        language: String, tags: [String] = [], fileFormat: RecordingAudioFormat = .wav, timeZone: TimeZone = .current,
        vocabulary: Vocabulary = Vocabulary()
    ) -> RecordingEngineSettings {
        RecordingEngineSettings(language: language, name: name, tags: tags, fileFormat: fileFormat, timeZone: timeZone,
                                keepIfInterrupted: false, imported: imported, vocabulary: vocabulary)
    }
}
