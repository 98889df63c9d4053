import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber search QUERY [--json]`.
struct SearchCommand: CLICommand {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Search names, transcripts, tags, summaries and languages.",
        usage: "search <query> [--limit <n>] [--json]",
        arguments: [ArgumentSpec("<query>", "Words to find (several arguments are joined with spaces).")],
        options: [
            .value("limit", "n", "Show at most this many matches (default 50)."),
            .flag("json", "Print a JSON array of matches."),
        ],
        discussion: """
            Case and accents are ignored (cafe finds Café) and each word matches the start of a word
            (plan finds planner). Chinese, Japanese and Korean text is matched anywhere, from one character.
            Punctuation and operators are searched as text, never interpreted.
            """
    )

    var query: String
    var limit: Int
    var json: Bool

    init(arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing <query>") }
        query = arguments.positionals.joined(separator: " ")
        json = arguments.flag("json")
        if let text = arguments.value("limit") {
            guard let number = Int(text), number > 0 else { throw UsageError("invalid value '\(text)' for '--limit'; use a positive number") }
            limit = number
        } else {
            limit = 50
        }
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        let hits = try store.search(query, limit: limit)
        if json {
            try context.printJSON(hits)
            return ExitCode.success
        }
        guard !hits.isEmpty else {
            // The query is echoed to at most 60 columns: a pasted 100 KB text is not printed back.
            context.print("No matches for '\(TerminalText.prefix(query, width: 60))'.")
            return ExitCode.success
        }
        let (open, close) = context.useColor ? ("\u{1B}[1m", "\u{1B}[0m") : ("[", "]")
        let rows = hits.map { hit in
            [hit.recordingID, hit.recordingName, hit.timeText.map { "[\($0)]" } ?? "(\(hit.field.rawValue))"].map(VisibleText.escaped)
                + [Self.visibleSnippet(hit, open: open, close: close)]
        }
        context.stdout.write(LibraryAccess.table(rows, escaping: false))
        return ExitCode.success
    }

    /// The hit's snippet with its text made visible (`VisibleText`) and each match between `open` and `close`.
    static func visibleSnippet(_ hit: SearchHit, open: String, close: String) -> String {
        var text = ""
        for character in hit.markedSnippet {
            switch character {
            case Character(SearchHit.matchStart): text += open
            case Character(SearchHit.matchEnd): text += close
            default: text += VisibleText.escaped(String(character))
            }
        }
        return text
    }
}
