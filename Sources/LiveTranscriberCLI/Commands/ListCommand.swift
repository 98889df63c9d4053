import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber list [--tag T] [--since DATE] [--json]`: saved recordings, newest first.
struct ListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List saved recordings, newest first.",
        usage: "list [--tag <tag>] [--since <date>] [--json]",
        options: [
            .value("tag", "tag", "Only recordings with this tag (any case)."),
            .value("since", "date", "Only recordings made on or after this date: YYYY-MM-DD, 'YYYY-MM-DD HH:MM' as list prints it, or ISO 8601 (local time unless a zone is given)."),
            .flag("json", "Print a JSON array of recordings."),
        ]
    )

    var tag: String?
    var since: Date?
    var json: Bool
    private var sinceText: String?

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        tag = arguments.value("tag")
        json = arguments.flag("json")
        sinceText = arguments.value("since")
        if let text = sinceText, LibraryFormat.parseDate(text, timeZone: .current) == nil {
            throw UsageError("invalid date '\(TerminalText.prefix(text, width: 40))' for '--since'; use YYYY-MM-DD, 'YYYY-MM-DD HH:MM' or an ISO 8601 date and time")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        let timeZone = LibraryAccess.timeZone(context)
        let since = sinceText.flatMap { LibraryFormat.parseDate($0, timeZone: timeZone) }
        let recordings = try store.list().filter { recording in
            (tag.map { wanted in recording.tags.contains { RecordingTags.same($0, wanted) } } ?? true) && (since.map { recording.createdAt >= $0 } ?? true)
        }
        if json {
            try context.printJSON(recordings)
            return ExitCode.success
        }
        guard !recordings.isEmpty else {
            context.print(tag == nil && since == nil
                ? "No recordings yet. Make one with 'livetranscriber record'."
                : "No recordings match.")
            return ExitCode.success
        }
        var rows = [["ID", "DATE", "DURATION", "NAME", "TAGS"]]
        for recording in recordings {
            rows.append([
                recording.id, LibraryFormat.dateTime(recording.createdAt, timeZone: timeZone),
                ElapsedTimeFormat.clock(recording.durationSeconds), recording.name, recording.tags.joined(separator: ", "),
            ])
        }
        context.stdout.write(LibraryAccess.table(rows))
        return ExitCode.success
    }
}
