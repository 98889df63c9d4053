import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `record`'s second pass (`TranscriptRefinement`): the saved recording's audio transcribed again
/// as a file with the engine, model, language and vocabulary it was recorded with, saved with
/// `RecordingRetranscription` (the live transcript becomes the previous one), a progress bar on a
/// terminal's stderr, and Ctrl-C (or SIGTERM) keeping the live transcript.
struct TranscriptRefiner {
    let context: CommandContext
    let store: LibraryStore
    let engine: SpeechEngineKind
    /// `--model`: a model file, or nil for the installed one.
    let model: String?
    /// `--language` as the recording was made with it ("auto" by default): the file is decoded under
    /// the same choice, so its stretches keep their own languages as `import`'s do.
    let recordedUnder: LanguageChoice
    /// The speaker labels made after the words (`SpeakerLabelling`); nil for none.
    var speakers: SpeakerLabelling? = nil

    /// What the second pass came to.
    enum Outcome {
        /// The refined transcript is saved; `speakers` says what its speaker labelling came to (nil: none asked).
        case refined(RecordingWithTranscript, speakers: SpeakerLabelling.Result? = nil)
        /// A stop signal came first; the live transcript stays.
        case stopped
        /// Another command (`retranscribe`, serve's page) gave the recording a new transcript while
        /// this pass ran; that one stays (`LibraryError.changedMeanwhile`).
        case replacedMeanwhile
        /// It failed, or gave no text; the live transcript stays. One sentence, why.
        case failed(String)
    }

    /// Transcribes `recording` again and saves the result; never throws: the live transcript is
    /// saved whatever happens here.
    /// - Parameters:
    ///   - isStopped: true once a stop signal came after the recording was said to be saved (the
    ///     Ctrl-C that stopped the recording does not count: `StopSignals.count`).
    ///   - progressOutput: where the progress bar is drawn (a terminal), or nil for none.
    func refine(_ recording: Recording, isStopped: @escaping () -> Bool, progressOutput: (any TextOutput)?) -> Outcome {
        let started = ContinuousClock.now
        var lastDraw = started - .seconds(1)
        let label = "Refining (Ctrl-C keeps the live transcript)"
        func draw(_ seconds: Double, force: Bool = false) {
            guard let progressOutput, force || ContinuousClock.now - lastDraw >= .milliseconds(200) else { return }
            lastDraw = ContinuousClock.now
            let wall = started.duration(to: .now)
            let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            progressOutput.write("\r\u{1B}[K" + ProgressBarText.fitted(columns: Terminal.size(fileDescriptor: 2).columns, label: label) { label, width in
                ProgressBarText.line(label: label, done: seconds, total: recording.durationSeconds, wallSeconds: wallSeconds, width: width)
            })
        }
        defer { if progressOutput != nil { progressOutput?.write("\r\u{1B}[K") } }
        do {
            // The live transcript, as saved: a transcript another command saves meanwhile is kept.
            let job = try RecordingRetranscription(recording: recording, in: store)
            let outcome = try job.run(in: store, reads: .libsndfile, speakers: speakers) { audio in
                draw(0, force: true)
                let transcript = try LocalFileTranscriber(engine: engine, model: model, recentLanguage: try job.recentLanguage(in: store)).transcript(
                    of: audio, language: job.defaultLanguage(recordedUnder: recordedUnder), vocabulary: Vocabulary(recording.vocabulary),
                    languageWarning: { _ in },  // said once already, while recording
                    progress: { draw($0) }, isCancelled: isStopped)
                return NewTranscript(transcript, vocabulary: nil)
            }
            switch outcome {
            case .saved(let refined, _, let labels): return .refined(refined, speakers: labels)
            case .changedMeanwhile: return .replacedMeanwhile
            case .deletedMeanwhile: return .failed("'\(recording.name)' (\(recording.id)) was deleted while it was being refined")
            }
        } catch is TranscriptionCancelled {
            return .stopped
        } catch {
            return .failed(LiveTranscriberCommandLine.describe(error))
        }
    }
}
