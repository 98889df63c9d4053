import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber list [--tag T] [--since DATE] [--limit N] [--offset N] [--json]`: saved
/// recordings, newest first, a page at a time when asked.
struct ListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List saved recordings, newest first.",
        usage: "list [--tag <tag>] [--since <date>] [--limit <n>] [--offset <n>] [--json]",
        options: [
            .value("tag", "tag", "Only recordings with this tag (any case)."),
            .value("since", "date", "Only recordings made on or after this date (YYYY-MM-DD, or ISO 8601 with a time)."),
            .value("limit", "n", "Show at most this many recordings (default: all)."),
            .value("offset", "n", "Skip this many of the newest: --limit 50 --offset 50 shows the second page."),
            .flag("json", "Print a JSON array of recordings."),
        ]
    )

    var tag: String?
    var since: Date?
    var json: Bool
    var limit: Int?
    var offset: Int
    private var sinceText: String?

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        tag = arguments.value("tag")
        json = arguments.flag("json")
        sinceText = arguments.value("since")
        (limit, offset) = try LibraryAccess.page(arguments, fallback: nil)
        if let text = sinceText, Self.parseDate(text, timeZone: .current) == nil {
            throw UsageError("invalid date '\(text)' for '--since'; use YYYY-MM-DD or an ISO 8601 date and time")
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        let timeZone = LibraryAccess.timeZone(context)
        let since = sinceText.flatMap { Self.parseDate($0, timeZone: timeZone) }
        let recordings = try store.list(ListRequest(tag: tag, since: since, limit: limit, offset: offset))
        if json {
            try LibraryAccess.printJSON(recordings, context)
            return ExitCode.success
        }
        guard !recordings.isEmpty else {
            context.print(tag == nil && since == nil && offset == 0
                ? "No recordings yet. Make one with 'livetranscriber record'."
                : "No recordings match.")
            return ExitCode.success
        }
        var rows = [["ID", "DATE", "DURATION", "NAME", "TAGS"]]
        for recording in recordings {
            rows.append([
                recording.id, LibraryFormat.dateTime(recording.createdAt, timeZone: timeZone),
                LibraryFormat.clock(recording.durationSeconds), recording.name, recording.tags.joined(separator: ", "),
            ])
        }
        context.stdout.write(LibraryAccess.table(rows))
        return ExitCode.success
    }

    /// "YYYY-MM-DD" (midnight in `timeZone`) or a full ISO 8601 date and time.
    static func parseDate(_ text: String, timeZone: TimeZone) -> Date? {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
