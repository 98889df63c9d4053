import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import Synchronization

/// Re-transcribes a recording from the page as `retranscribe` does with a local engine (the
/// default engine, `$LIVETRANSCRIBER_ENGINE` or whisper), through the same use case
/// (`RecordingRetranscription`: audio check, rules, save over the transcript read; the previous transcript is kept,
/// `retranscribe --restore` puts it back). It runs on a thread of its own and tells how far it
/// has transcribed, for the page's progress bar.
final class WebRetranscriber: Sendable {
    /// A re-transcription's progress.
    struct Job: Sendable, Equatable, Encodable {
        /// "running", "done" or "failed".
        var state: String
        /// Seconds of audio transcribed so far (`LocalTranscription.transcribe`'s progress).
        var doneSeconds: Double
        /// Seconds of audio in the recording.
        var totalSeconds: Double
        /// `doneSeconds / totalSeconds`, 0…1 (1 when done).
        var fraction: Double
        /// The language the transcript is made in (BCP 47).
        var language: String
        /// Segments of the new transcript, once done.
        var segments: Int?
        /// Why it failed, one sentence.
        var error: String?
        /// A note on a job that was saved: why it has no speaker labels (`SpeakerLabelling.Result.note`).
        var note: String?
        /// True for the second pass over a recording just saved from the page (`TranscriptRefinement`),
        /// false for a transcribe-again the user asked for.
        var refining: Bool
    }

    private let context: CommandContext
    private let jobs = Mutex<[String: Job]>([:])

    init(context: CommandContext) {
        self.context = context
    }

    /// The last re-transcription of recording `id` since the server started, nil when none.
    func job(_ id: String) -> Job? { jobs.withLock { $0[id] } }

    /// Starts re-transcribing `recording` in `language` (nil: its own).
    /// - Parameter refining: the second pass over a recording the page just saved, not a request.
    /// - Returns: the job as it starts.
    /// - Throws: `LibraryWebAPI.BadRequest` for a bad language tag or one the engine cannot take; `Busy` while one of the same
    ///   recording runs; `AudioFormatUnsupported` for audio this machine cannot read.
    func start(_ recording: Recording, language: String?, refining: Bool = false) throws -> Job {
        let language = try language.map { tag in
            do {
                let tag = try SpeechOptions.languageTag(tag)
                // A language the engine cannot take is refused here, not as a job that fails once started.
                try SpeechOptions.validate(SpeechOptions.defaultEngine(context.environment), language: tag, model: nil)
                return tag
            } catch let error as UsageError {
                throw LibraryWebAPI.BadRequest(message: error.message)
            }
        } ?? recording.language
        try AudioFormatSupport.libsndfile.checkReadable(recording.audio.format)
        let job = Job(state: "running", doneSeconds: 0, totalSeconds: recording.durationSeconds, fraction: 0, language: language,
                      refining: refining)
        try jobs.withLock { jobs in
            if jobs[recording.id]?.state == "running" { throw Busy() }
            jobs[recording.id] = job
        }
        let thread = Thread { [self] in run(recording, language: language) }
        thread.name = "retranscribe"
        thread.start()
        return job
    }

    /// A re-transcription of the recording is already under way.
    struct Busy: Error, CustomStringConvertible {
        var description: String { "this recording is already being transcribed again" }
    }

    private func run(_ recording: Recording, language: String) {
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
            // Speaker labels after the words, as `retranscribe` and `record`'s second pass make them.
            let speakers = SpeakerLabelling(diarizer: SherpaOnnxDiarizer())
            let outcome = try job.run(in: opened, reads: .libsndfile, speakers: speakers) { audio in
                let engine = try SpeechOptions.defaultEngine(context.environment)
                // The library's vocabulary (or LIVETRANSCRIBER_VOCABULARY), as `retranscribe` without '--vocabulary'.
                let vocabulary = try SpeechOptions.vocabulary(option: nil, kind: engine, model: nil, environment: context.environment,
                                                              library: context.dataDirectory, note: { _ in })
                let transcript = try LocalFileTranscriber(engine: engine).transcript(
                    of: audio, language: language, vocabulary: vocabulary, languageWarning: { _ in }
                ) { seconds in
                    jobs.withLock { jobs in
                        jobs[id]?.doneSeconds = min(seconds, recording.durationSeconds)
                        jobs[id]?.fraction = min(1, seconds / total)
                    }
                }
                return NewTranscript(transcript, vocabulary: vocabulary.terms)
            }
            jobs.withLock { jobs in
                switch outcome {
                case .saved(let saved, _, let labels):
                    jobs[id]?.note = labels?.note
                    jobs[id]?.language = saved.recording.language
                    jobs[id]?.state = "done"
                    jobs[id]?.doneSeconds = recording.durationSeconds  // all of it, as `fraction` says
                    jobs[id]?.fraction = 1
                    jobs[id]?.segments = saved.segments.count
                case .changedMeanwhile, .deletedMeanwhile:
                    jobs[id]?.state = "failed"
                    jobs[id]?.error = outcome.notSavedReason
                }
            }
        } catch {
            // Deleted meanwhile (the page's Delete, or `delete`): its folder went with it.
            let gone = RecordingRetranscription.isGone(recording, after: error, in: store)
            let reason = gone ? RetranscriptionOutcome.deletedMeanwhile(recording).notSavedReason ?? "" : CommandRunner.describe(error)
            jobs.withLock { jobs in
                jobs[id]?.state = "failed"
                jobs[id]?.error = reason
            }
        }
    }
}
