import Foundation

/// What a front end hears from the engine, on the thread that called it.
public enum RecordingEngineEvent: Sendable, Equatable {
    /// The session moved to a new phase.
    case phaseChanged(RecordingSession.Phase)
    /// The interim line changed (nil: cleared).
    case interimChanged(String?)
    /// A final segment was added (already journaled).
    case finalAdded(TranscriptSegment)
    /// A block of audio was recorded: seconds so far (pauses excluded) and its RMS level.
    case audioReceived(seconds: Double, level: Float)
}

/// What one recording is asked to be.
public struct RecordingEngineSettings: Sendable {
    /// BCP 47 tag of the speech ("en-US"), or "auto" (`LanguageChoice`); the recognizer factory
    /// gets it. The recording is saved with the recognizer's `language` at the end, which is the
    /// detected one under "auto".
    public var language: String
    /// The terms the recognizer factory was given (`Vocabulary`), saved with the recording.
    public var vocabulary: Vocabulary
    /// The name given up front; nil for "Recording 2026-11-29 20:41" in `timeZone`.
    public var name: String?
    /// Tags given up front.
    public var tags: [String]
    /// Where the recording is made, when the user keeps it.
    public var location: RecordingLocation?
    /// The saved recording's audio format. The draft is written in `fileFormat.draftFormat` and,
    /// when that differs (M4A), encoded by `RecordingEngineServices.encoder` on save.
    public var fileFormat: RecordingAudioFormat
    /// The time zone of the default name.
    public var timeZone: TimeZone
    /// Seconds between rewrites of the audio file's header (crash safety: at most this much
    /// audio is past the header's length when the process dies).
    public var headerUpdateInterval: TimeInterval
    /// Seconds of recording time between the Live Activity's time-rule checks.
    public var activityTickSeconds: Double
    /// How far a file input may read ahead of transcription, and what a stop does to decodes
    /// still pending.
    public var pendingTranscription: PendingTranscription
    /// False when nothing of the recording may outlive a crash or a failed save (`record
    /// --discard`, an import): the draft is marked so from its first file.
    public var keepIfInterrupted: Bool
    /// Set for an import (`RecordingImport`): the digest the saved recording keeps and whether a
    /// duplicate is refused when saving.
    public var imported: ImportedAudio?

    public init(
        language: String, name: String? = nil, tags: [String] = [], location: RecordingLocation? = nil,
        fileFormat: RecordingAudioFormat = .wav, timeZone: TimeZone = .current,
        headerUpdateInterval: TimeInterval = 0.5, activityTickSeconds: Double = 5, keepIfInterrupted: Bool = true,
        imported: ImportedAudio? = nil, pendingTranscription: PendingTranscription = PendingTranscription(),
        vocabulary: Vocabulary = Vocabulary()
    ) {
        self.pendingTranscription = pendingTranscription
        self.vocabulary = vocabulary
        self.keepIfInterrupted = keepIfInterrupted
        self.imported = imported
        self.language = language
        self.name = name
        self.tags = tags
        self.location = location
        self.fileFormat = fileFormat
        self.timeZone = timeZone
        self.headerUpdateInterval = headerUpdateInterval
        self.activityTickSeconds = activityTickSeconds
    }
}

/// The outside world of a recording engine: every service behind a core protocol.
public struct RecordingEngineServices<Store: RecordingDraftStore> {
    /// Where drafts live and recordings are saved.
    public var store: Store
    /// A recognizer for a BCP 47 language tag. Throws when no model serves it.
    public var makeRecognizer: (String) throws -> any SpeechRecognizer
    /// A sample-rate converter: input rate, output rate (Hz), interleaved channels.
    public var makeResampler: (Int, Int, Int) throws -> any Resampler
    /// A writer creating `file` for audio of `format` stored as the given file format.
    public var makeWriter: (URL, AudioFormat, RecordingAudioFormat) throws -> any AudioFileWriter
    /// Where the Live Activity is shown (ActivityKit, a JSON Lines feed, a recorder in tests).
    public var activity: any ActivityClient
    /// The only source of time.
    public var clock: any WallClock
    /// Transcribes a draft's audio again in another language; nil when the front end has none.
    public var retranscribe: ((URL, String) throws -> [TranscriptSegment])?
    /// Encodes the closed draft into a format that is not recorded directly (M4A); nil when the
    /// front end has none, and then `start()` refuses such a format with `RecordingEngineError.cannotEncode`.
    public var encoder: (any AudioFileEncoding)?

    public init(
        store: Store, makeRecognizer: @escaping (String) throws -> any SpeechRecognizer,
        makeResampler: @escaping (Int, Int, Int) throws -> any Resampler,
        makeWriter: @escaping (URL, AudioFormat, RecordingAudioFormat) throws -> any AudioFileWriter,
        activity: any ActivityClient, clock: any WallClock,
        retranscribe: ((URL, String) throws -> [TranscriptSegment])? = nil,
        encoder: (any AudioFileEncoding)? = nil
    ) {
        self.encoder = encoder
        self.store = store
        self.makeRecognizer = makeRecognizer
        self.makeResampler = makeResampler
        self.makeWriter = makeWriter
        self.activity = activity
        self.clock = clock
        self.retranscribe = retranscribe
    }
}

/// Why the engine refused a request.
public enum RecordingEngineError: Error, Equatable, CustomStringConvertible {
    /// A language change in the draft needs a re-transcriber, and the front end gave none.
    case cannotRetranscribe
    /// The format is encoded on save (M4A), and the front end gave no encoder.
    case cannotEncode(RecordingAudioFormat)

    public var description: String {
        switch self {
        case .cannotEncode(let format):
            let direct = RecordingAudioFormat.allCases.filter { !$0.isEncodedOnSave }
            return "this recorder cannot encode \(AudioFormatUnsupported.displayName(format.rawValue)); choose \(RecordingAudioFormat.list(direct))."
        case .cannotRetranscribe:
            return "this recorder cannot transcribe the draft again in another language; save it and use retranscribe."
        }
    }
}
