import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber import PATH...`: transcribes audio files into the library.
package struct ImportCommand: CLICommand {
    package static let spec = CommandSpec(
        name: "import",
        abstract: "Transcribe audio files into the library.",
        usage: "import PATH... [--tags a,b] [--format \(AudioFormatSupport.libsndfile.writes.map(\.rawValue).joined(separator: "|"))] \(SpeechOptions.usage) [--translate] [--again] [--json]",
        arguments: [ArgumentSpec("PATH", "Audio files: WAV (8/16/24/32-bit integer, 32-bit float), FLAC, Ogg Vorbis or Opus, MP3; any rate and channels.")],
        options: [tags, OptionParsing.format] + SpeechOptions.options + [translate, again, json],
        discussion: """
            A file that cannot be read is reported and skipped; the others are still imported, and the exit code is 1.
            A file whose audio is already in the library (the same samples, whatever the file's name, tags or
            container) is skipped with a note unless --again is given; a skipped file alone does not make the
            exit code 1.
            """
    )

    static let tags = OptionSpec.value("tags", "tags", "Comma-separated tags for every imported recording.")
    static let translate = OptionSpec.flag("translate", "Also make each recording's English translation (whisper's translate task), kept next to its transcript.")
    static let again = OptionSpec.flag("again", "Import files whose audio is already in the library once more.")
    static let json = OptionSpec.flag("json", "Print the imported recordings as a JSON array.")

    let paths: [String]
    let tags: [String]
    let format: RecordingAudioFormat
    let again: Bool
    /// `--translate`: each imported recording also gets its English translation (`RecordingTranslation`).
    let translate: Bool
    let json: Bool
    let speech: SpeechOptions

    package init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("PATH", min: 1, max: .max)
        paths = arguments.positionals
        if paths.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw UsageError("PATH cannot be empty: give the path of an audio file")
        }
        tags = try OptionParsing.tags(arguments.value(Self.tags))
        let format = try OptionParsing.audioFormat(arguments.value(OptionParsing.format))
        self.format = format
        again = arguments.flag(Self.again)
        translate = arguments.flag(Self.translate)
        json = arguments.flag(Self.json)
        speech = try SpeechOptions.parse(arguments)
    }

    package func run(in context: CommandContext) throws -> Int32 {
        // A language or model the engine cannot take: a usage error, before any file is read.
        try speech.validate(in: context.environment, translate: translate)
        return try LibraryAccess.savingInto(context) { try importFiles(in: context) }
    }

    private func importFiles(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        var imported: [RecordingWithTranscript] = []
        var failures = 0
        var skipped = 0
        var diskFull = false
        // One handler for the whole command: Ctrl-C or SIGTERM, during a file or between two,
        // stops the import; the file in progress is discarded, the ones already imported stay.
        let signals = StopSignals()
        defer { signals.cancel() }
        for argument in paths {
            if signals.stopRequested { break }
            // A name that is not UTF-8 is opened by its bytes and shown escaped; a pipe is read
            // into a temporary file first, a stop ending the wait (UserPath).
            let file: UserPath
            do {
                file = try UserPath(argument, readingStreams: { signals.stopRequested })
            } catch RecordingInterrupted.cancelled {
                break
            } catch {
                failures += 1
                context.printErrorLine("error: \(LiveTranscriberCommandLine.describe(error))")
                continue
            }
            let path = file.path, shown = file.shown
            let name = RecordingImport.name(fromStem: file.stem)
            let display: any RecordingDisplay = context.stderr.isTerminal
                ? ProgressBarDisplay(output: context.stderr, label: name) : SilentDisplay()
            if let note = RecordingInput.file(path: path).repairNote { context.printError(file.naming(note)) }
            do {
                // The core's import use case: a file already in the library is refused before it is
                // transcribed, and again under the library's write lock when saving (another import
                // of the same file may have saved it meanwhile); the recording keeps the file's
                // digest; the speakers are labelled after the save.
                let labelling = speech.speakers.labelling(SherpaOnnxDiarizer(isCancelled: { [flag = signals.stopFlag] in flag.isRaised }))
                let outcome = try RecordingImport.run(
                    file: URL(fileURLWithPath: path), stem: file.stem, refusingDuplicates: !again, library: store,
                    contentDigest: { _ in try AudioDigest.of(path: path) },  // the path as given: errors name it so
                    speakers: labelling
                ) { plan in
                    let options = RecordingOptions(input: .file(path: path), speed: .max, name: plan.name, tags: tags, location: nil,
                                                   format: format, activityFeed: nil, json: json, discard: false, speech: speech,
                                                   importing: plan)
                    return try Recorder(options: options, context: context, store: store, display: display, signals: signals).run()
                }
                guard case .imported(let result) = outcome else {
                    if case .alreadyInLibrary(let id, let name, let audioMissing) = outcome {
                        skipped += 1
                        // A recording whose audio file was removed by hand keeps its digest: the sentence
                        // says its audio is missing (`MissingAudioFile`), or the user would think it kept.
                        let reason = LibraryError.alreadyInLibrary(id: id, name: name, audioMissing: audioMissing)
                        context.printError("note: skipped \(shown): \(reason); add --again to import it once more.")
                    }
                    continue
                }
                Self.report(result, context: context)
                var saved = result.saved
                if translate {
                    saved.recording = try Self.translate(saved.recording, in: store, speech: speech, context: context)
                }
                imported.append(saved)
                context.saved.add("\(shown) was imported: " + LibraryAccess.savedLine(saved.recording))
                if !json {
                    let count = saved.segments.count
                    context.print("Imported \(shown) as \(saved.recording.id): \(ElapsedTimeFormat.clock(saved.recording.durationSeconds)), \(Plural.count(count, "segment")).")
                }
            } catch RecordingInterrupted.cancelled {
                break
            } catch RecordingInterrupted.noAudio {
                failures += 1
                context.printErrorLine("error: " + RecordingInterrupted.noAudioImported(from: shown))
            } catch {
                failures += 1
                context.printErrorLine("error: \(file.naming(LiveTranscriberCommandLine.describe(error)))")
                // The library said nothing more can be saved until there is room: the other files
                // are not tried, as it said (one might fit now that the failed draft is gone, but
                // it would fill the disk to its last byte, for this and every other program).
                if LibraryStore.isOutOfSpace(error) {
                    diskFull = true
                    break
                }
            }
        }
        if json {
            try context.printJSON(imported)
        }
        if signals.stopRequested {
            let left = paths.count - imported.count - failures - skipped
            let skippedText = skipped > 0 ? ", \(skipped) skipped (already in the library)" : ""
            context.printError("Import stopped: \(imported.count) imported\(skippedText), \(left) not imported.")
            return signals.exitCode
        }
        let untried = paths.count - imported.count - failures - skipped
        if diskFull && untried > 0 {
            context.printError("Import stopped: the disk is full; \(imported.count) imported, \(Plural.count(untried, "file")) not tried. "
                + "Free some space, then import \(untried == 1 ? "it" : "them") again.")
            return ExitCode.failure
        }
        if let summary = Self.summary(files: paths.count, failures: failures, skipped: skipped) { context.printError(summary) }
        return failures > 0 ? ExitCode.failure : ExitCode.success
    }

    /// The English translation of `recording`, kept next to its transcript (`RecordingTranslation`),
    /// with the engine and model the import used; the recording as it is now kept.
    static func translate(_ recording: Recording, in store: LibraryStore, speech: SpeechOptions, context: CommandContext) throws -> Recording {
        let kind = try speech.engineChoice ?? SpeechOptions.defaultEngine(context.environment)
        try LocalFileTranscriber.translate(recording, from: recording.language, in: store, engine: kind, model: speech.model)
        return try store.resolve(recording.id)
    }

    /// The note on stderr when an import's speakers were not labelled: the models are missing
    /// (how to install them), or the labelling failed after the save. The import stands either way.
    package static func report(_ imported: RecordingImport.Imported, context: CommandContext) {
        SpeakerOptions.report(imported.speakers, context: context)
        if let failure = imported.speakerFailure {
            context.printError("note: speaker labels were not made for \(imported.saved.recording.id): \(LiveTranscriberCommandLine.describe(failure)).")
        }
    }

    /// The closing line on stderr when a file was not imported: "1 of 3 files could not be
    /// imported; 1 skipped (already in the library).", "1 of 1 file skipped (already in the
    /// library).", or nil when every file was imported.
    static func summary(files: Int, failures: Int, skipped: Int) -> String? {
        let skippedText = "skipped (already in the library)"
        switch (failures, skipped) {
        case (0, 0): return nil
        case (0, _): return "\(skipped) of \(Plural.count(files, "file")) \(skippedText)."
        case (_, 0): return "\(failures) of \(Plural.count(files, "file")) could not be imported."
        default: return "\(failures) of \(Plural.count(files, "file")) could not be imported; \(skipped) \(skippedText)."
        }
    }
}
