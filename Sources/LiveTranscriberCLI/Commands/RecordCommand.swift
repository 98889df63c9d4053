import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber record`: live transcription into a new saved recording.
struct RecordCommand: CLICommand {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Record and transcribe live, then save the recording to the library.",
        usage: "record [--input PATH|-] [--rate HZ --channels N] [--device NAME] [--speed 1|N|max] [--name NAME] [--tags a,b] [--location LAT,LON] [--format \(AudioFormatSupport.libsndfile.writes.map(\.rawValue).joined(separator: "|"))] \(SpeechOptions.usage) [--activity-feed PATH|-] [--events PATH|-] [--json] [--discard] [--no-refine] [--stats]",
        options: [input, rate, channels, device, speed, name, tags, location, OptionParsing.format] + SpeechOptions.options + [
            activityFeed, events, json, discard, noRefine, stats,
        ],
        discussion: """
        Raw PCM is signed 16-bit little-endian; it is assumed for '-' and for names ending in .raw or .pcm.
        While recording on a terminal: space or p pauses and resumes, q or Ctrl-C stops and saves.
        With whisper, the saved audio is then transcribed again as a whole file, which reads hard speech better than
        the live decodes, and that transcript is saved; the live one is kept ('retranscribe ID --restore' puts it back).
        Ctrl-C during that pass, or '--no-refine', keeps the live transcript.
        """
    )

    static let input = OptionSpec.value("input", "path", "Audio file (WAV, FLAC, Ogg, MP3, …) or raw PCM; '-' reads raw PCM from stdin. Default: the microphone.")
    static let rate = OptionSpec.value("rate", "hz", "Sample rate of raw PCM input, or of the microphone (default 48000).")
    static let channels = OptionSpec.value("channels", "n", "Channels of raw PCM input (default 1), or of the microphone (default 1).")
    static let device = OptionSpec.value("device", "name", "ALSA capture device (default: 'default').")
    static let speed = OptionSpec.value("speed", "speed", "Play a file at 1 (real time, default), N times real time, or 'max'. Standard input is read as it arrives.")
    static let name = OptionSpec.value("name", "name", "Name of the recording (default: date and time).")
    static let tags = OptionSpec.value("tags", "tags", "Comma-separated tags.")
    static let location = OptionSpec.value("location", "lat,lon", "Where the recording was made, in degrees.")
    static let activityFeed = OptionSpec.value("activity-feed", "path", "Write the Live Activity's starts, updates and ends as JSON lines to PATH or '-' (stdout).")
    static let events = OptionSpec.value("events", "path", "Write the live event stream (interim text, finals with word times, phase changes) as JSON lines to PATH or '-' (stdout); see docs/live-events.md.")
    static let json = OptionSpec.flag("json", "Print the saved recording as JSON.")
    static let discard = OptionSpec.flag("discard", "Discard the recording when it stops instead of saving it.")
    static let noRefine = OptionSpec.flag("no-refine", "Keep the live transcript: do not transcribe the saved audio again as a file (whisper).")
    static let stats = OptionSpec.flag("stats", "Print recognition and Live Activity counters on stderr when done.")

    let options: RecordingOptions
    let printStats: Bool
    /// False with `--no-refine`: the live transcript is the one saved (`TranscriptRefinement`).
    let refine: Bool

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("nothing", min: 0, max: 0)
        let rate = try arguments.value(Self.rate).map { try OptionParsing.positiveInt($0, option: Self.rate.name, range: AudioFormat.supportedSampleRates) }
        let channels = try arguments.value(Self.channels).map { try OptionParsing.positiveInt($0, option: Self.channels.name, range: 1...32) }
        let input: RecordingInput
        if let path = arguments.value(Self.input) {
            guard !path.isEmpty else { throw UsageError("--input needs a path, or '-' for stdin") }
            let isRaw = path == "-" || [".raw", ".pcm"].contains { path.lowercased().hasSuffix($0) }
            if isRaw {
                if path == "-" && isatty(0) == 1 {
                    throw UsageError("--input - reads raw PCM from a pipe or a file, not from the terminal")
                }
                guard let rate else { throw UsageError("raw PCM input needs --rate (for example --rate 16000)") }
                // Standard input is a stream, like the microphone: read as it arrives, never paced.
                if path == "-", let speed = arguments.value(Self.speed), speed != "max" {
                    throw UsageError("--speed applies to files; standard input is read as it arrives")
                }
                input = .rawPCM(path: path, sampleRate: rate, channels: channels ?? 1)
            } else {
                if rate != nil || channels != nil {
                    throw UsageError("--rate and --channels are for raw PCM and the microphone; \(path) says its own format")
                }
                input = .file(path: path)
            }
            if arguments.value(Self.device) != nil { throw UsageError("--device is for the microphone, not --input") }
        } else {
            input = .microphone(device: arguments.value(Self.device) ?? "default", sampleRate: rate ?? 48_000, channels: channels ?? 1)
            if arguments.value(Self.speed) != nil { throw UsageError("--speed applies to file input; the microphone is always live") }
        }
        let format = try OptionParsing.audioFormat(arguments.value(OptionParsing.format))
        let name = try arguments.value(Self.name).map { try OptionParsing.recordingName($0, option: "--name") }
        options = RecordingOptions(
            input: input,
            speed: input.readsStandardInput ? .max : try arguments.value(Self.speed).map(PlaybackSpeed.parse) ?? .factor(1),
            name: name,
            tags: try OptionParsing.tags(arguments.value(Self.tags)),
            location: try arguments.value(Self.location).map(OptionParsing.location),
            format: format,
            activityFeed: arguments.value(Self.activityFeed),
            json: arguments.flag(Self.json),
            discard: arguments.flag(Self.discard),
            speech: try SpeechOptions.parse(arguments),
            events: arguments.value(Self.events)
        )
        printStats = arguments.flag(Self.stats)
        refine = !arguments.flag(Self.noRefine)
        if !refine && options.discard { throw UsageError("--no-refine has nothing to keep with --discard") }
        if options.activityFeed?.isEmpty == true { throw UsageError("--activity-feed needs a file path, or '-' for stdout") }
        if options.activityFeed == "-" && options.json {
            throw UsageError("--activity-feed - and --json both want stdout; write the feed to a file")
        }
        if options.events?.isEmpty == true { throw UsageError("--events needs a file path, or '-' for stdout") }
        if options.events == "-" && (options.json || options.activityFeed == "-") {
            throw UsageError("--events - and \(options.json ? "--json" : "--activity-feed -") both want stdout; write one of them to a file")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        // Option values only the engine or the library's place can judge: usage errors, before anything starts.
        try options.speech.validate(in: context.environment)
        let outputs = [("--activity-feed", options.activityFeed), ("--events", options.events)]
            .compactMap { name, path in path.flatMap { $0 == "-" ? nil : (name, $0) } }
        for (_, path) in outputs {
            try OutputFile.refuseInsideLibrary(path, library: context.dataDirectory)
            // Written from the start: over the input file, the audio would be gone before it is read.
            switch options.input {
            case .file(let input) where input != "-", .rawPCM(let input, _, _) where input != "-":
                try OutputFile.refuseSameFile(path, as: input, otherName: "--input")
            default: break
            }
        }
        if outputs.count == 2 { try OutputFile.refuseSameFile(outputs[1].1, as: outputs[0].1, otherName: outputs[0].0) }
        return try LibraryAccess.savingInto(context) { try record(in: context) }
    }

    private func record(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        // A library that cannot be changed: refused before a pipe is read or a model loaded.
        try store.checkCanBeChanged()
        // One handler for the whole command: Ctrl-C or SIGTERM while a pipe is read ends the wait,
        // and during the recording stops and saves it.
        let signals = StopSignals()
        defer { signals.cancel() }
        // A file name that is not UTF-8 is opened by its bytes and shown escaped; a pipe
        // (`/dev/stdin`, a named pipe, `<(…)`) is read into a temporary file first, as import
        // reads one: a file's format is found by seeking in it (UserPath).
        var options = self.options
        var file: UserPath?
        if case .file(let path) = options.input {
            let opened: UserPath
            do {
                opened = try UserPath(path, readingStreams: { signals.stopRequested }, reader: "record --input")
            } catch RecordingInterrupted.cancelled {
                throw RecordingInterrupted.stoppedBeforeAudio
            }
            options.input = .file(path: opened.path)
            file = opened
        }
        if let note = options.input.repairNote { context.printError(file?.naming(note) ?? note) }
        let display = RecordingDisplays.forRecord(options, context: context)
        let recorder = Recorder(options: options, context: context, store: store, display: display, signals: signals)
        let saved: RecordingWithTranscript?
        do {
            saved = try recorder.run()
        } catch let error where file.map({ $0.path != $0.argument }) == true {
            throw UserPath.Failure(message: file!.naming(LiveTranscriberCommandLine.describe(error)))
        }
        defer { if printStats, let stats = recorder.stats { context.printError(stats.line) } }
        guard let saved else {
            (options.json || options.events == "-" ? context.stderr : context.stdout).write("Discarded the recording.\n")
            if options.json { try context.printJSON(["discarded": true]) }  // stdout stays parseable
            return ExitCode.success
        }
        context.saved.add(LibraryAccess.savedLine(saved.recording))
        // A Ctrl-C from here on stops the second pass (the one that stopped the recording is already counted).
        let signalsBefore = signals.count
        let stopSignal = signals.stopFlag.signal
        // With the feed or the events on stdout, the closing lines go to stderr so stdout stays JSON Lines.
        let output = options.activityFeed == "-" || options.events == "-" ? context.stderr : context.stdout
        if !options.json {
            let recording = saved.recording
            let count = saved.segments.count
            output.write(VisibleText.escaped("Saved \"\(recording.name)\" as \(recording.id): \(ElapsedTimeFormat.clock(recording.durationSeconds)), \(Plural.count(count, "segment")).") + "\n")
        }
        var result = saved
        var untranscribed = recorder.untranscribedAudio
        // The second pass: the saved audio transcribed again as a file, the live transcript kept as the previous one.
        let engine = try options.speech.engine(in: context.environment)
        switch TranscriptRefinement.decision(engine: engine, turnedOff: !refine, audioSeconds: saved.recording.durationSeconds,
                                             stoppedByTermination: stopSignal == SIGTERM || stopSignal == SIGHUP) {
        case .refine:
            // Speaker labels come with the second pass, after the live finals (`SpeakerLabelling`).
            let stopped: @Sendable () -> Bool = { [flag = signals.stopFlag] in flag.count > signalsBefore }
            let refiner = TranscriptRefiner(context: context, store: store, engine: engine, model: options.speech.model,
                                            recordedUnder: LanguageChoice(options.speech.language),
                                            speakers: options.speech.speakers.labelling(SherpaOnnxDiarizer(isCancelled: stopped)))
            switch refiner.refine(saved.recording, isStopped: { signals.count > signalsBefore }, progressOutput: context.stderr.isTerminal ? context.stderr : nil) {
            case .refined(let refined, let labels):
                result = refined
                SpeakerOptions.report(labels, context: context)
                untranscribed = nil  // all of the audio has a transcript now
                if !options.json { output.write(TranscriptRefinement.doneLine(segments: refined.segments.count, recordingID: refined.recording.id) + "\n") }
            case .stopped where untranscribed == nil:  // else that note already says to run retranscribe
                context.printError("note: " + TranscriptRefinement.skippedNote(recordingID: saved.recording.id, stopped: true))
            case .stopped:
                break
            case .replacedMeanwhile:
                context.printError("note: the transcript was not refined: another command gave the recording a new transcript meanwhile, which is kept.")
            case .failed(let reason):
                context.printError("note: the transcript could not be refined (\(reason)); the live one is saved.")
            }
        case .keepLiveAfterSignal where untranscribed == nil:
            context.printError("note: " + TranscriptRefinement.skippedNote(recordingID: saved.recording.id, stopped: false))
        case .keepLiveAfterSignal, .keepLive:
            break
        }
        if options.json { try context.printJSON(result) }
        // A stop before the decoding caught up: all the audio is saved, the rest of the transcript is retranscribe's.
        if let untranscribed {
            context.printError("note: " + untranscribed.note(recordingID: saved.recording.id))
        }
        if let failure = recorder.feedFailure, let path = options.activityFeed {
            context.printErrorLine("error: could not write the activity feed to \(path): \(failure); the recording was saved")
            return ExitCode.failure
        }
        if let failure = recorder.eventsFailure, let path = options.events {
            context.printError("error: could not write the event stream to \(path): \(failure); the recording was saved")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
