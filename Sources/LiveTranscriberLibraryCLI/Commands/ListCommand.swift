import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberStore

/// `livetranscriber list [--tag T] [--since DATE] [--limit N] [--offset N] [--json]`: saved
/// recordings, newest first, a page at a time when asked.
struct ListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List saved recordings, newest first.",
        options: [tag, since, limit, offset, json]
    )

    static let tag = OptionSpec.value("tag", "tag", "Only recordings with this tag (any case).")
    static let since = OptionSpec.value("since", "date", "Only recordings made on or after this date: YYYY-MM-DD, 'YYYY-MM-DD HH:MM' as list prints it, or ISO 8601 (local time unless a zone is given).")
    static let limit = OptionSpec.value("limit", "n", "Show at most this many recordings (default: all).")
    static let offset = OptionSpec.value("offset", "n", "Skip this many of the newest: --limit 50 --offset 50 shows the second page.")
    static let json = OptionSpec.flag("json", "Print a JSON array of recordings.")

    var tag: String?
    var since: Date?
    var json: Bool
    var limit: Int?
    var offset: Int
    private var sinceText: String?

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        tag = arguments.value(Self.tag)
        json = arguments.flag(Self.json)
        sinceText = arguments.value(Self.since)
        (limit, offset) = try LibraryAccess.page(arguments, limit: Self.limit, offset: Self.offset, fallback: nil)
        if let text = sinceText, LibraryFormat.parseDate(text, timeZone: .current) == nil {
            throw UsageError("invalid date '\(TerminalText.prefix(text, width: 40))' for '--since'; use YYYY-MM-DD, 'YYYY-MM-DD HH:MM' or an ISO 8601 date and time")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        let timeZone = LibraryAccess.timeZone(context)
        let since = sinceText.flatMap { LibraryFormat.parseDate($0, timeZone: timeZone) }
        let recordings = try store.list(ListRequest(tag: tag, since: since, limit: limit, offset: offset))
        let unreadable = LibraryAccess.unreadableFolders(store)
        defer { LibraryAccess.printUnreadableNote(unreadable, context) }
        if json {
            try context.printJSON(recordings)
            return ExitCode.success
        }
        guard !recordings.isEmpty else {
            // "No recordings yet" only when there are none: folders that cannot be read are recordings.
            if offset > 0 {
                context.print("No more recordings.")
            } else {
                context.print(tag == nil && since == nil && unreadable.isEmpty
                    ? "No recordings yet. Make one with 'livetranscriber record'."
                    : "No recordings match.")
            }
            return ExitCode.success
        }
        var rows = [["ID", "DATE", "DURATION", "NAME", "TAGS"]]
        for recording in recordings {
            rows.append([
                recording.id, LibraryFormat.dateTime(recording.createdAt, timeZone: timeZone),
                ElapsedTimeFormat.clock(recording.durationSeconds), recording.name, recording.tags.joined(separator: ", "),
            ])
        }
        // On a terminal the name, then the tags, are cut to fit its width, and on a narrow one the
        // date (the id starts with it), the tags and the duration are left out; a pipe gets whole rows.
        context.stdout.write(LibraryAccess.table(rows, width: context.stdoutColumns, cutting: [3, 4], dropping: [1, 4, 2]))
        // A full page says where the next one starts, as search does.
        if let limit, recordings.count == limit {
            context.print("More may follow: --offset \(offset + limit).")
        }
        return ExitCode.success
    }
}
