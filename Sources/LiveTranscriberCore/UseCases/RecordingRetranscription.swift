import Foundation

/// Transcribing a saved recording again and saving the new transcript, the way every front end
/// does it: `retranscribe` (a local engine or OpenAI), `record`'s second pass, `serve`'s
/// transcribe-again job and the iPhone app's OpenAI re-transcription.
///
/// Two steps. `init` reads what will be replaced: the recording (one whose transcript cannot be
/// read is found too, since a new transcript repairs it), the library's write block, and the
/// transcript as it is now (`expected`). `run` checks the audio can be read here and is there,
/// hands it to the front end's transcriber, applies the rules every new transcript follows, and
/// saves it only over the transcript it read.
///
/// ```swift
/// let job = try RecordingRetranscription("latest", in: store)
/// let outcome = try job.run(in: store, reads: .libsndfile) { audio in
///     NewTranscript(try transcriber.transcript(of: audio, language: job.recording.language, vocabulary: terms,
///                                              languageWarning: warn), vocabulary: terms.terms)
/// }
/// ```
public struct RecordingRetranscription: Sendable, Equatable {
    /// The recording transcribed again, as it was read.
    public let recording: Recording
    /// The transcript the new one replaces, as read: the save is refused if it changes meanwhile.
    public let expected: ExpectedTranscript
    /// Why `transcript.json` could not be read, when it could not; the new transcript repairs it.
    public let damage: UnreadableTranscript?

    /// Reads recording `reference` (an id, a unique id prefix or "latest") and its transcript.
    /// - Throws: what `RecordingStore.resolveForNewTranscript` throws; `LibraryError.readOnly`
    ///   when the library cannot be changed (before anything is transcribed or uploaded); a read
    ///   error of the transcript other than damage (`LibraryError.corrupt`).
    public init(_ reference: String, in store: some RecordingStore) throws {
        try self.init(recording: try store.resolveForNewTranscript(reference), in: store)
    }

    /// Reads the transcript of `recording`, already resolved.
    /// - Throws: as `init(_:in:)`.
    public init(recording: Recording, in store: some RecordingStore) throws {
        try store.checkCanBeChanged()
        self.recording = recording
        do {
            expected = .segments(try store.transcript(of: recording.id))
            damage = nil
        } catch LibraryError.corrupt(let path, let reason) {
            expected = .unreadable
            damage = UnreadableTranscript(path: path, reason: reason)
        }
    }

    /// The language the audio is decoded in when the user names none: "auto" when the recording was
    /// made under `auto` (`record`'s second pass gives `recordedUnder`) or its transcript holds
    /// stretches in other languages (`TranscriptSegment.language`), so each keeps its own
    /// (`SegmentLanguages`); else the recording's language.
    public func defaultLanguage(recordedUnder: LanguageChoice? = nil) -> String {
        let mixed = currentSegments?.contains { $0.language != nil } ?? false
        return recordedUnder == .automatic || mixed ? LanguageChoice.automaticName : recording.language
    }

    /// The language of the library's other recent recordings (`RecentLanguage.of`), for audio too
    /// short to identify (`LanguageLock.recent`); nil when there are none. Lists the library: asked
    /// only by a caller that decodes locally.
    /// - Throws: what `RecordingStore.list` throws.
    public func recentLanguage(in store: some RecordingStore) throws -> String? {
        RecentLanguage.of(try store.list().filter { $0.id != recording.id })
    }

    /// The segments read, or nil when the transcript could not be read (`damage`).
    public var currentSegments: [TranscriptSegment]? {
        if case .segments(let segments) = expected { return segments }
        return nil
    }

    /// Transcribes the recording's audio with `transcribe` and saves the result as its transcript.
    /// The transcript replaced is kept as the previous one (`retranscribe --restore`), except a
    /// damaged one, which the store sets aside in the recording's folder.
    ///
    /// - Parameters:
    ///   - reads: the formats this platform's audio library reads (`AudioFormatSupport.libsndfile`).
    ///   - speakers: the speaker-labelling step (`SpeakerLabelling`), run on the same audio after
    ///     `transcribe`; nil for none (`--no-speakers`, a platform without a model). The names the
    ///     user gave the replaced transcript's speakers carry over (`SpeakerAttribution.carryingNames`).
    ///   - transcribe: given the audio file, returns the new transcript.
    /// - Returns: `.saved`, or why nothing was saved although the transcription ran.
    /// - Throws: `AudioFormatUnsupported` for audio this platform cannot read and `MissingAudioFile`
    ///   for audio that is gone, both before `transcribe` is called; what `transcribe` throws
    ///   (`TranscriptionCancelled` on Linux); `RetranscriptionError.noText` when it gave no
    ///   segment; what the store throws while saving, other than the two outcomes.
    public func run(
        in store: some RecordingStore, reads: AudioFormatSupport, speakers labelling: SpeakerLabelling? = nil,
        transcribe: (URL) throws -> NewTranscript
    ) throws -> RetranscriptionOutcome {
        try reads.checkReadable(recording.audio.format)
        let result: NewTranscript
        var segments: [TranscriptSegment]
        var speakers: [Speaker] = []
        var labels: SpeakerLabelling.Result?
        do {
            let audio = try store.existingAudioFile(of: recording)
            result = try transcribe(audio)
            segments = try Retranscription.transcriptToSave(result.segments, recordingName: recording.name)
            if let labelling {
                let labelled = try labelling.label(segments, audio: audio, previous: (currentSegments ?? [], recording.speakers))
                (segments, speakers, labels) = (labelled.labelled.segments, labelled.labelled.speakers, labelled.result)
            }
        } catch where Self.isGone(recording, after: error, in: store) {
            return .deletedMeanwhile(recording)  // its audio went with it
        }
        do {
            try store.replaceTranscript(of: recording.id, with: segments, language: result.language, vocabulary: result.vocabulary,
                                        speakers: speakers, notes: result.notes, expected: expected)
        } catch LibraryError.changedMeanwhile {
            return .changedMeanwhile(recording)
        } catch where Self.isGone(recording, after: error, in: store) {
            return .deletedMeanwhile(recording)
        }
        return .saved(RecordingWithTranscript(recording: try store.resolve(recording.id), segments: try store.transcript(of: recording.id)),
                      repaired: damage, speakers: labels)
    }

    /// True when `recording` is no longer in the library (deleted since it was read), judged by
    /// `error` first: the store said its folder is not there (`LibraryError.notFound` of its id).
    /// A delete moves the folder to the trash before it takes the recording out of the index, so
    /// between the two the index alone would still find it; else by the index (whatever failed:
    /// reading audio deleted under the transcriber fails in the platform's own words). Nil
    /// `store`: only the error is judged.
    public static func isGone(_ recording: Recording, after error: any Error, in store: (any RecordingStore)?) -> Bool {
        if case LibraryError.notFound(let reference) = error, reference == recording.id { return true }
        guard let store else { return false }
        return (try? store.resolve(recording.id))?.id != recording.id
    }
}

/// What a transcriber gives a re-transcription to save.
public struct NewTranscript: Sendable, Equatable {
    /// Final segments, times in seconds from the start of the recording.
    public var segments: [TranscriptSegment]
    /// BCP 47 tag of the transcript (the one named or detected); it becomes the recording's.
    public var language: String
    /// The terms the recognizer was given (`Vocabulary.terms`), kept with the recording; nil keeps the recording's.
    public var vocabulary: [String]?
    /// Notes on how it was made (`Recording.notes`); they replace the recording's.
    public var notes: [String]

    public init(segments: [TranscriptSegment], language: String, vocabulary: [String]?, notes: [String] = []) {
        self.segments = segments
        self.language = language
        self.vocabulary = vocabulary
        self.notes = notes
    }

    /// A local transcriber's transcript, made with `vocabulary` (nil: keep the recording's).
    public init(_ transcript: LocalTranscript, vocabulary: [String]?) {
        self.init(segments: transcript.segments, language: transcript.language, vocabulary: vocabulary, notes: transcript.notes)
    }
}

/// What a re-transcription came to once its transcriber ran (`RecordingRetranscription.run`).
public enum RetranscriptionOutcome: Sendable, Equatable {
    /// The new transcript is saved: the recording as it is now, with it. `repaired`: the damaged
    /// transcript it replaced, set aside in the recording's folder. `speakers`: what the
    /// speaker-labelling step came to, nil when none was asked for.
    case saved(RecordingWithTranscript, repaired: UnreadableTranscript?, speakers: SpeakerLabelling.Result? = nil)
    /// Another command gave the recording a new transcript (or restored the previous one) while
    /// this one was made; that one stays, nothing was saved.
    case changedMeanwhile(Recording)
    /// The recording was deleted while it was transcribed; nothing was saved.
    case deletedMeanwhile(Recording)

    /// The recording and its new transcript, for a front end that reports any other outcome as an error.
    /// - Throws: `RetranscriptionError.notSaved` with `notSavedReason`.
    public func saved() throws -> RecordingWithTranscript {
        switch self {
        case .saved(let saved, _, _): return saved
        case .changedMeanwhile, .deletedMeanwhile: throw RetranscriptionError.notSaved(reason: notSavedReason ?? "")
        }
    }

    /// Why nothing was saved, one sentence without a final period; nil for `.saved`.
    public var notSavedReason: String? {
        switch self {
        case .saved: return nil
        case .changedMeanwhile(let recording):
            return LibraryError.changedMeanwhile(id: recording.id).description
        case .deletedMeanwhile(let recording):
            return "'\(VisibleText.escaped(recording.name))' (\(recording.id)) was deleted while it was being transcribed again; "
                + "the new transcript was not saved"
        }
    }
}

/// A `transcript.json` that could not be read (`LibraryError.corrupt`), which a new transcript repairs.
public struct UnreadableTranscript: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// Why it could not be read, one sentence.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "note: the transcript of ID could not be read (REASON); REPAIR, and the damaged file is kept in FOLDER."
    /// - Parameter repair: what was done instead: "a new one was made from the audio".
    public func note(id: String, repair: String) -> String {
        let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return "note: the transcript of \(id) could not be read (\(reason)); \(repair), and the damaged file is kept in \(folder)."
    }
}
