import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import Synchronization

/// Re-transcribes a recording from the page as `retranscribe` does with a local engine (the
/// default engine, `$LIVETRANSCRIBER_ENGINE` or whisper), through the same use case
/// (`RecordingRetranscription`: audio check, rules, save over the transcript read; the previous transcript is kept,
/// `retranscribe --restore` puts it back), or translates it as `retranscribe --translate` does
/// (`RecordingTranslation`). It runs on a thread of its own and tells how far it has gone, for
/// the page's progress bar.
final class WebRetranscriber: Sendable {
    /// What a job makes.
    enum Request: Sendable, Equatable {
        /// A new transcript in `language` (a BCP 47 tag or "auto"); nil: as `retranscribe` without
        /// `--language` (`RecordingRetranscription.defaultLanguage`).
        case transcribe(language: String?)
        /// The second pass over a recording just saved from the page (`TranscriptRefinement`),
        /// decoded under the language choice it was recorded with, as `record`'s second pass.
        case refine(recordedUnder: LanguageChoice)
        /// The English translation, kept next to the transcript; decoded from `language` (nil: as `.transcribe`).
        case translate(from: String?)
    }

    /// A job's progress, as `GET /api/recordings/ID/retranscribe` sends it (docs/serve.md).
    struct Job: Sendable, Equatable, Encodable {
        /// Where a job is.
        enum State: Sendable, Equatable {
            case running
            /// Saved: `segments` of the new transcript (or of the translation).
            case done(segments: Int)
            /// Nothing was saved; `error` says why, one sentence.
            case failed(error: String)

            var isRunning: Bool { self == .running }
        }

        /// Sent as "state": "running", "done" or "failed", with "segments" once done and "error" once failed.
        var state: State
        /// Seconds of audio transcribed so far (`LocalTranscription.transcribe`'s progress).
        var doneSeconds: Double
        /// Seconds of audio in the recording.
        var totalSeconds: Double
        /// `doneSeconds / totalSeconds`, 0…1 (1 when done).
        var fraction: Double
        /// The language the transcript is made in (BCP 47).
        var language: String
        /// A note on a job that was saved: why it has no speaker labels (`SpeakerLabelling.Result.note`).
        var note: String?
        /// True for the second pass over a recording just saved from the page (`TranscriptRefinement`),
        /// false for a transcribe-again the user asked for.
        var refining: Bool
        /// True for a translation (`Request.translate`): `segments` counts the translation's, and
        /// the transcript is unchanged.
        var translating: Bool

        private enum Key: String, CodingKey {
            case state, doneSeconds, totalSeconds, fraction, language, segments, error, note, refining, translating
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch state {
            case .running:
                try container.encode("running", forKey: .state)
            case .done(let segments):
                try container.encode("done", forKey: .state)
                try container.encode(segments, forKey: .segments)
            case .failed(let error):
                try container.encode("failed", forKey: .state)
                try container.encode(error, forKey: .error)
            }
            try container.encode(doneSeconds, forKey: .doneSeconds)
            try container.encode(totalSeconds, forKey: .totalSeconds)
            try container.encode(fraction, forKey: .fraction)
            try container.encode(language, forKey: .language)
            try container.encodeIfPresent(note, forKey: .note)
            try container.encode(refining, forKey: .refining)
            try container.encode(translating, forKey: .translating)
        }
    }

    private let context: CommandContext
    private let jobs = Mutex<[String: Job]>([:])

    init(context: CommandContext) {
        self.context = context
    }

    /// The last re-transcription of recording `id` since the server started, nil when none.
    func job(_ id: String) -> Job? { jobs.withLock { $0[id] } }

    /// Starts `request` on `recording`.
    /// - Returns: the job as it starts.
    /// - Throws: `LibraryWebAPI.BadRequest` for a bad language tag or one the engine cannot take, and for a
    ///   translation with an engine that cannot translate (pocketsphinx); `Busy` while a job on the same
    ///   recording runs; `AudioFormatUnsupported` for audio this machine cannot read.
    func start(_ recording: Recording, _ request: Request) throws -> Job {
        let engine: SpeechEngineKind
        do {
            engine = try SpeechOptions.defaultEngine(context.environment)
        } catch let error as UsageError {
            throw LibraryWebAPI.BadRequest(message: error.message)
        }
        let request = try Self.checked(request, engine: engine)
        try AudioFormatSupport.libsndfile.checkReadable(recording.audio.format)
        var job = Job(state: .running, doneSeconds: 0, totalSeconds: recording.durationSeconds, fraction: 0, language: recording.language,
                      refining: false, translating: false)
        switch request {
        case .transcribe(let language): job.language = language ?? recording.language
        case .refine: job.refining = true
        case .translate:
            job.translating = true
            job.language = RecordingTranslation.language
        }
        try jobs.withLock { [job] jobs in
            if jobs[recording.id]?.state.isRunning == true { throw Busy() }
            jobs[recording.id] = job
        }
        let thread = Thread { [self] in run(recording, request, engine: engine) }
        thread.name = "retranscribe"
        thread.start()
        return job
    }

    /// A re-transcription or translation of the recording is already under way.
    struct Busy: Error, CustomStringConvertible {
        var description: String { "this recording is already being transcribed again or translated" }
    }

    /// `request` with its language as a tag the engine takes, refused here rather than as a job
    /// that fails once started.
    private static func checked(_ request: Request, engine: SpeechEngineKind) throws -> Request {
        func tag(_ language: String?) throws -> String? {
            try language.map { tag in
                do {
                    let tag = try SpeechOptions.languageTag(tag)
                    try SpeechOptions.validate(engine, language: tag, model: nil)
                    return tag
                } catch let error as UsageError {
                    throw LibraryWebAPI.BadRequest(message: error.message)
                }
            }
        }
        switch request {
        case .transcribe(let language): return .transcribe(language: try tag(language))
        case .refine: return request
        case .translate(let language):
            guard engine == .whisper else {
                // Said for the page: the way out is the server's engine, not an option of a command.
                throw LibraryWebAPI.BadRequest(message: "translating needs the whisper engine; this server transcribes with \(engine.rawValue)")
            }
            return .translate(from: try tag(language))
        }
    }

    private func run(_ recording: Recording, _ request: Request, engine: SpeechEngineKind) {
        let id = recording.id
        var quiet = context
        quiet.stdout = BufferOutput()
        quiet.stderr = BufferOutput()
        var store: LibraryStore?
        do {
            let opened = try LibraryAccess.open(quiet)
            store = opened
            // What is replaced, as it is now: a transcript another command saves meanwhile is not overwritten.
            let job = try RecordingRetranscription(recording: recording, in: opened)
            let total = max(recording.durationSeconds, 0.001)
            let progress = { (seconds: Double) in
                self.jobs.withLock { jobs in
                    jobs[id]?.doneSeconds = min(seconds, recording.durationSeconds)
                    jobs[id]?.fraction = min(1, seconds / total)
                }
            }
            let language: String
            switch request {
            case .transcribe(let named): language = named ?? job.defaultLanguage()
            case .refine(let choice): language = job.defaultLanguage(recordedUnder: choice)
            case .translate(let named):
                let segments = try LocalFileTranscriber.translate(recording, from: named ?? job.defaultLanguage(), in: opened,
                                                                  engine: engine, progress: progress)
                finish(id, recording: recording, segments: segments.count, language: RecordingTranslation.language, note: nil)
                return
            }
            // Speaker labels after the words, as `retranscribe` and `record`'s second pass make them.
            let speakers = SpeakerLabelling(diarizer: SherpaOnnxDiarizer())
            let outcome = try job.run(in: opened, reads: .libsndfile, speakers: speakers) { audio in
                // The library's vocabulary (or LIVETRANSCRIBER_VOCABULARY), as `retranscribe` without '--vocabulary'.
                let vocabulary = try SpeechOptions.vocabulary(option: nil, kind: engine, model: nil, environment: context.environment,
                                                              library: context.dataDirectory, note: { _ in })
                // The library's recent language for audio too short to identify, as `retranscribe` takes it.
                let transcript = try LocalFileTranscriber(engine: engine, recentLanguage: try job.recentLanguage(in: opened)).transcript(
                    of: audio, language: language, vocabulary: vocabulary, languageWarning: { _ in }, progress: progress)
                return NewTranscript(transcript, vocabulary: vocabulary.terms)
            }
            switch outcome {
            case .saved(let saved, _, let labels):
                finish(id, recording: recording, segments: saved.segments.count, language: saved.recording.language, note: labels?.note)
            case .changedMeanwhile, .deletedMeanwhile:
                jobs.withLock { jobs in jobs[id]?.state = .failed(error: outcome.notSavedReason ?? "") }
            }
        } catch {
            // Deleted meanwhile (the page's Delete, or `delete`): its folder went with it.
            let gone = RecordingRetranscription.isGone(recording, after: error, in: store)
            let reason = gone ? RetranscriptionOutcome.deletedMeanwhile(recording).notSavedReason ?? "" : CommandRunner.describe(error)
            jobs.withLock { jobs in jobs[id]?.state = .failed(error: reason) }
        }
    }

    /// Marks the job on `id` done: all of the recording's audio, `segments` saved in `language`.
    private func finish(_ id: String, recording: Recording, segments: Int, language: String, note: String?) {
        jobs.withLock { jobs in
            jobs[id]?.note = note
            jobs[id]?.language = language
            jobs[id]?.state = .done(segments: segments)
            jobs[id]?.doneSeconds = recording.durationSeconds  // all of it, as `fraction` says
            jobs[id]?.fraction = 1
        }
    }
}
