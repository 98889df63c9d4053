import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux

/// Imports a file uploaded to `serve` the way `import` imports one: the core's `RecordingImport`
/// (a file whose audio is already in the library is refused before it is transcribed), the same
/// recorder at full speed, the same engine and store. The upload is kept in a private temporary
/// folder under its own name (so the recording is named after it) and removed afterwards.
struct WebImport: Sendable {
    /// The serve command's context (its library, environment and audio reader).
    let context: CommandContext
    /// Raised by Ctrl-C or SIGTERM to `serve`: an import under way is stopped and discarded.
    let stopFlag: StopFlag
    /// Where each upload gets its private folder (`livetranscriber-upload-UUID`, mode 0700) while
    /// it is read; the system's temporary folder unless given.
    var scratch: URL = FileManager.default.temporaryDirectory

    /// Why an upload was not imported (besides `LibraryError`).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Imports `data` as the file `fileName` (already checked by `UploadedFileName.checked`).
    /// - Throws: `LibraryError.alreadyInLibrary` (unless `again`), `.invalid` for a bad tag,
    ///   `Failure` when the file holds no audio, cannot be read, or the server is stopping.
    func run(fileName: String, data: Data, tags: [String], again: Bool) throws -> RecordingWithTranscript {
        let tags = try RecordingTags.normalized(tags)
        return try withUpload(fileName: fileName, data: data) { file in try save(file, as: fileName, tags: tags, again: again) }
    }

    private func save(_ file: URL, as fileName: String, tags: [String], again: Bool) throws -> RecordingWithTranscript {
        var quiet = context
        quiet.stdout = BufferOutput()
        quiet.stderr = BufferOutput()
        do {
            return try LibraryAccess.savingInto(quiet) {
                let store = try LibraryAccess.open(quiet)
                // Speaker labels, as `import` makes them; without them (and a note in the server's log) when the models are missing.
                let labelling = SpeakerLabelling(diarizer: SherpaOnnxDiarizer(isCancelled: { [stopFlag] in stopFlag.isRaised }))
                let outcome = try RecordingImport.run(file: file, refusingDuplicates: !again, library: store,
                                                      contentDigest: { try AudioDigest.of(path: $0.path) }, speakers: labelling) { plan in
                    let options = RecordingOptions(input: .file(path: file.path), speed: .max, name: plan.name, tags: tags, location: nil,
                                                   format: .wav, activityFeed: nil, json: true, discard: false,
                                                   speech: SpeechOptions(engineChoice: nil, language: LanguageChoice.default.name, model: nil),
                                                   importing: plan)
                    return try Recorder(options: options, context: quiet, store: store, display: SilentDisplay(),
                                        signals: StopSignals(following: stopFlag)).run()
                }
                switch outcome {
                case .imported(let result):
                    ImportCommand.report(result, context: context)
                    return result.saved
                case .alreadyInLibrary(let id, let name, let audioMissing):
                    throw LibraryError.alreadyInLibrary(id: id, name: name, audioMissing: audioMissing)
                case .stopped:
                    throw Failure(description: "the import was stopped; nothing was saved")
                }
            }
        } catch RecordingInterrupted.noAudio {
            throw Failure(description: RecordingInterrupted.noAudioImported(from: fileName))
        } catch RecordingInterrupted.cancelled {
            throw Failure(description: "the server is stopping; \(fileName) was not imported")
        } catch let error as LibraryError {
            throw error
        } catch let error as Failure {
            throw error
        } catch {
            // Said of the file as uploaded, not of the temporary copy.
            throw Failure(description: CommandRunner.describe(error).replacingOccurrences(of: file.path, with: fileName))
        }
    }

    /// The transcript of an upload, not saved (`/v1/audio/transcriptions`), made with the default
    /// local engine (`$LIVETRANSCRIBER_ENGINE` or whisper) in `language`.
    /// - Parameter recentLanguage: the library's recent language (`RecentLanguage.of`), for audio
    ///   too short to identify under "auto", as `import` takes it.
    /// - Returns: its segments, the audio's length in seconds, and its language (the one detected under "auto").
    /// - Throws: `Failure` when the file cannot be read or transcribed.
    func transcribe(fileName: String, data: Data, language: String,
                    recentLanguage: String?) throws -> (segments: [TranscriptSegment], seconds: Double, language: String) {
        try withUpload(fileName: fileName, data: data) { file in
            try transcribe(file, as: fileName, language: language, recentLanguage: recentLanguage)
        }
    }

    private func transcribe(_ file: URL, as fileName: String, language: String,
                            recentLanguage: String?) throws -> (segments: [TranscriptSegment], seconds: Double, language: String) {
        do {
            let engine = try SpeechOptions.defaultEngine(context.environment)
            let transcript = try LocalFileTranscriber(engine: engine, recentLanguage: recentLanguage)
                .transcript(of: file, language: language, vocabulary: Vocabulary(), languageWarning: { _ in })
            // The length of all of it (every link of a chained Ogg file), as it was transcribed.
            let read = try? AudioFileReader.open(path: file.path)
            let seconds = read.flatMap { reader in reader.totalFrames.map { Double($0) / Double(reader.format.sampleRate) } }
                ?? context.audioMeasure?.statedSeconds(file) ?? transcript.segments.map(\.endSeconds).max() ?? 0
            return (transcript.segments, seconds, transcript.language)
        } catch {
            throw Failure(description: CommandRunner.describe(error).replacingOccurrences(of: file.path, with: fileName))
        }
    }

    /// Runs `work` on `data` written as `fileName` in a private folder under `scratch`, removed after.
    private func withUpload<T>(fileName: String, data: Data, _ work: (URL) throws -> T) throws -> T {
        let folder = scratch.appendingPathComponent("livetranscriber-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(fileName)
        try data.write(to: file)
        return try work(file)
    }
}
