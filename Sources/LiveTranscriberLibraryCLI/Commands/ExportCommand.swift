import Foundation
import LiveTranscriberCore

/// `livetranscriber export ID --format txt|md|srt|vtt|json [--output PATH]`
struct ExportCommand: CLICommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write a recording's transcript as text, Markdown, subtitles or JSON.",
        usage: "export <id> --format txt|md|srt|vtt|json [--output PATH [--json]]",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique id prefix, or 'latest'.")],
        options: [
            .value("format", "FORMAT", "txt, md, srt, vtt or json."),
            .value("output", "PATH", "Write to PATH instead of standard output ('-' is standard output)."),
            .flag("json", "With --output: print what was written as JSON (id, format, path, bytes)."),
        ],
        discussion: "SRT and WebVTT times are rounded to whole milliseconds; overlapping, empty and repeated segments are repaired first.")

    let reference: String
    let format: ExportFormat
    let output: String?
    let json: Bool
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
        guard let value = arguments.value("format") else { throw UsageError("missing '--format' (txt, md, srt, vtt or json)") }
        guard let format = ExportFormat(rawValue: value.lowercased()) else {
            throw UsageError("unknown format '\(value)'; use txt, md, srt, vtt or json")
        }
        self.format = format
        output = arguments.value("output")
        if output?.isEmpty == true { throw UsageError("--output needs a file path, or '-' for stdout") }
        json = arguments.flag("json")
        if json && (output == nil || output == "-") {
            throw UsageError("--json describes the file --output wrote; without --output the export itself is printed (use --format json for JSON)")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try services.store(context)
        let recording = try store.resolve(reference)
        let text = TranscriptExporter().export(recording: recording, segments: try store.transcript(of: recording.id), format: format)
        guard let output, output != "-" else {
            // On a terminal the export is read, not kept: hidden characters are shown (VisibleText);
            // a pipe or a redirect gets the document exactly.
            context.stdout.write(context.stdout.isTerminal ? VisibleText.escapedKeepingLines(text) : text)
            return ExitCode.success
        }
        try OutputFile.refuseInsideLibrary(output, library: context.dataDirectory)
        try OutputFile.write(Data(text.utf8), to: output)
        if json {
            try context.printJSON(Written(id: recording.id, format: format.rawValue, path: output, bytes: text.utf8.count))
        } else {
            context.printError("Wrote \(output).")
        }
        return ExitCode.success
    }
}
