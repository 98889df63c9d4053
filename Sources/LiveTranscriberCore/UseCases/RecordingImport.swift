import Foundation

/// Importing one audio file into the library, the way every front end does it (the command
/// line's `import`, the iPhone app's Import button, the web page's upload).
///
/// Three steps around the recording engine: `init` names the recording and refuses a file whose
/// audio is already in the library before anything is transcribed; `engineSettings` gives the
/// engine what the save needs (the file's digest, the duplicate check made again under the
/// library's write lock, a draft that no crash keeps: an import can simply be run again);
/// `finish` labels the speakers of what was saved. `run` is the three in order, for a front end
/// whose engine runs synchronously (the command line, `serve`); the app, whose engine runs on
/// its own tasks, calls `init` and `finish` around it.
///
/// ```swift
/// let outcome = try RecordingImport.run(file: url, refusingDuplicates: !again, library: store,
///                                       contentDigest: { try AudioDigest.of(path: $0.path) },
///                                       speakers: labelling) { plan in
///     try recorder(settings: plan.engineSettings(language: "auto")).run()
/// }
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

    /// What importing one file came to.
    public enum Outcome: Sendable {
        /// Saved, with its transcript (labelled when `speakers` says so).
        case imported(Imported)
        /// Not imported: a recording of the same audio is in the library (`refusingDuplicates`).
        case alreadyInLibrary(id: String, name: String, audioMissing: Bool)
        /// Not imported: the engine run was stopped (Ctrl-C, the server stopping); nothing was saved.
        case stopped
    }

    /// A saved import and how its speaker labelling went. The import stands whatever the labelling gave.
    public struct Imported: Sendable {
        /// The recording and its transcript as saved (with speaker labels when they were made).
        public var saved: RecordingWithTranscript
        /// How the labelling went: `.labelled` or `.skipped` (models missing; `note` says how to
        /// install them); nil when it was not asked for, was stopped, failed (`speakerFailure`) or
        /// found the transcript changed meanwhile.
        public var speakers: SpeakerLabelling.Result?
        /// What made the labelling fail after the save (reading the audio, the store); nil otherwise.
        public var speakerFailure: (any Error)?

        public init(saved: RecordingWithTranscript, speakers: SpeakerLabelling.Result? = nil,
                    speakerFailure: (any Error)? = nil) {
            self.saved = saved
            self.speakers = speakers
            self.speakerFailure = speakerFailure
        }
    }

    /// The last step: labels the speakers of `saved` (just saved by the engine) when `speakers`
    /// is given (`RecordingSpeakerLabels.label`). Never throws: the import is saved already, and
    /// a labelling that was stopped or failed leaves it unlabelled.
    public func finish(_ saved: RecordingWithTranscript, in library: some RecordingStore,
                       speakers: SpeakerLabelling?) -> Imported {
        guard let speakers else { return Imported(saved: saved) }
        do {
            let (labelled, result) = try RecordingSpeakerLabels.label(saved, in: library, with: speakers)
            return Imported(saved: labelled, speakers: result)
        } catch is TranscriptionCancelled {
            return Imported(saved: saved)
        } catch {
            return Imported(saved: saved, speakerFailure: error)
        }
    }

    /// Imports `file`: plans it (`init`), runs `transcribe` with the plan (the engine, saving the
    /// recording; nil when it was stopped), then `finish`.
    /// - Parameters:
    ///   - speakers: the speaker labelling to run after the save; nil for none (`--no-speakers`).
    ///   - transcribe: runs the engine with `engineSettings` of the plan and returns what it saved.
    /// - Returns: `.alreadyInLibrary` instead of throwing it, whether the plan or the save found
    ///   the duplicate, so a front end can skip the file with a note.
    /// - Throws: what `init` throws besides `LibraryError.alreadyInLibrary`; what `transcribe` throws.
    public static func run(
        file: URL, stem: String? = nil, refusingDuplicates: Bool, library: some RecordingStore,
        contentDigest: (URL) throws -> String?, speakers: SpeakerLabelling?,
        transcribe: (RecordingImport) throws -> RecordingWithTranscript?
    ) throws -> Outcome {
        let plan: RecordingImport
        let saved: RecordingWithTranscript?
        do {
            plan = try RecordingImport(file: file, stem: stem, refusingDuplicates: refusingDuplicates, library: library,
                                       contentDigest: contentDigest)
            // The save checks again under the library's write lock: another import of the same
            // audio may have saved it while this one was transcribing.
            saved = try transcribe(plan)
        } catch LibraryError.alreadyInLibrary(let id, let name, let audioMissing) {
            return .alreadyInLibrary(id: id, name: name, audioMissing: audioMissing)
        }
        guard let saved else { return .stopped }
        return .imported(plan.finish(saved, in: library, speakers: speakers))
    }
}
