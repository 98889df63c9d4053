import Foundation
import LiveTranscriberCore

/// `livetranscriber export ID --format txt|md|srt|vtt|json [--output PATH] [--line-length N] [--lines N] [--cue-seconds S]`
struct ExportCommand: CLICommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write a recording's transcript as text, Markdown, subtitles or JSON.",
        usage: "export <id> --format txt|md|srt|vtt|json [--transcript current|translated] [--output PATH [--json]] [--line-length N] [--lines N] [--cue-seconds S]",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique id prefix, or 'latest'.")],
        options: [format, transcript, output, json, lineLength, lines, cueSeconds],
        discussion: """
            SRT and WebVTT cues are split at word boundaries, using the words' times, to at most 42 \
            characters per line, 2 lines and 7 seconds (broadcasters' subtitle guidelines); every word \
            appears once, in order, and cues never overlap. Times are rounded to whole milliseconds; \
            overlapping, empty and repeated segments are repaired first.
            """)

    static let format = OptionSpec.choice("format", "FORMAT", "txt, md, srt, vtt or json.", choices: ExportFormat.allCases.map(\.rawValue))
    static let transcript = OptionSpec.choice(
        "transcript", "WHICH", "current (default), or translated: the English translation 'retranscribe --translate' made.",
        choices: ["current", "translated"])
    static let output = OptionSpec.value("output", "PATH", "Write to PATH instead of standard output ('-' is standard output).")
    static let json = OptionSpec.flag("json", "With --output: print what was written as JSON (id, format, path, bytes).")
    static let lineLength = OptionSpec.value("line-length", "N", "srt, vtt: characters per cue line (default 42).")
    static let lines = OptionSpec.value("lines", "N", "srt, vtt: lines per cue (default 2).")
    static let cueSeconds = OptionSpec.value("cue-seconds", "S", "srt, vtt: seconds a cue may last (default 7).")

    let reference: String
    let format: ExportFormat
    let output: String?
    /// `--transcript translated`: the translation kept next to the transcript.
    let translated: Bool
    let json: Bool
    let subtitleLayout: SubtitleLayout
    var services = LibraryServices()

    /// What `--json` prints: the file written.
    struct Written: Encodable {
        var id: String
        var format: String
        var path: String
        var bytes: Int
    }

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("<id>", min: 1, max: 1)
        reference = arguments.positionals[0]
        guard let value = arguments.value(Self.format) else { throw UsageError("missing '--format' (txt, md, srt, vtt or json)") }
        guard let format = ExportFormat(rawValue: value.lowercased()) else {
            throw UsageError("unknown format '\(value)'; use txt, md, srt, vtt or json")
        }
        self.format = format
        switch arguments.value(Self.transcript) ?? "current" {
        case "current": translated = false
        case "translated": translated = true
        case let other: throw UsageError("unknown transcript '\(other)'; use current or translated")
        }
        output = arguments.value(Self.output)
        if output?.isEmpty == true { throw UsageError("--output needs a file path, or '-' for stdout") }
        json = arguments.flag(Self.json)
        if json && (output == nil || output == "-") {
            throw UsageError("--json describes the file --output wrote; without --output the export itself is printed (use --format json for JSON)")
        }
        subtitleLayout = try Self.subtitleLayout(arguments, format: format)
    }

    func run(in context: CommandContext) throws -> Int32 {
        if let output, output != "-" { try OutputFile.refuseInsideLibrary(output, library: context.dataDirectory) }
        let store = try services.store(context)
        var recording = try store.resolve(reference)
        let segments: [TranscriptSegment]
        if translated {
            guard let translation = try store.translation(of: recording.id) else {
                context.printErrorLine("error: " + RecordingTranslation.missing(recording))
                return ExitCode.failure
            }
            segments = translation
            recording.language = recording.translation ?? RecordingTranslation.language
        } else {
            segments = try store.transcript(of: recording.id)
        }
        let text = TranscriptExporter(subtitleLayout: subtitleLayout, timeZone: LibraryAccess.timeZone(context)).export(recording: recording, segments: segments, format: format)
        guard let output, output != "-" else {
            // On a terminal the export is read, not kept: hidden characters are shown (VisibleText);
            // a pipe or a redirect gets the document exactly.
            context.stdout.write(context.stdout.isTerminal ? VisibleText.escapedKeepingLines(text) : text)
            return ExitCode.success
        }
        try OutputFile.write(Data(text.utf8), to: output)
        if json {
            try context.printJSON(Written(id: recording.id, format: format.rawValue, path: output, bytes: text.utf8.count))
        } else {
            context.printError("Wrote \(VisibleText.escaped(output)).")
        }
        return ExitCode.success
    }

    /// The cue limits from `--line-length`, `--lines` and `--cue-seconds`; the broadcasters' when none is given.
    /// Throws `UsageError` for a value out of range or for a limit given with a format that has no cues.
    static func subtitleLayout(_ arguments: ParsedArguments, format: ExportFormat) throws -> SubtitleLayout {
        let given = [lineLength, lines, cueSeconds].filter { arguments.value($0) != nil }.map(\.name)
        if let first = given.first, format != .srt && format != .vtt {
            throw UsageError("--\(first) applies to subtitles only (--format srt or vtt), not \(format.rawValue)")
        }
        var layout = SubtitleLayout.broadcast
        if let text = arguments.value(lineLength) {
            layout.maximumLineCharacters = try OptionParsing.positiveInt(text, option: lineLength.name, range: 1...1000)
        }
        if let text = arguments.value(lines) {
            layout.maximumLines = try OptionParsing.positiveInt(text, option: lines.name, range: 1...100)
        }
        if let text = arguments.value(cueSeconds) {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.5, seconds <= 3600 else {
                throw UsageError("--cue-seconds takes seconds from 0.5 to 3600, such as 7 or 5.5, not '\(text)'")
            }
            layout.maximumCueSeconds = seconds
        }
        return layout
    }
}
