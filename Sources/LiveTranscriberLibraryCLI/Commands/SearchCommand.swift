import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberStore

/// `livetranscriber search QUERY [--limit N] [--offset N] [--json]`: recordings, best first, with
/// their best places.
struct SearchCommand: CLICommand {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Search names, transcripts, tags, summaries and languages.",
        arguments: [ArgumentSpec("<query>", "Words to find (several arguments are joined with spaces).")],
        options: [limit, offset, json],
        discussion: """
            Results are recordings, best first: those holding every word, then those holding some.
            Each shows its best places (up to 3): the name, tags, summary or language that match, and
            transcript segments with their time. Case and accents are ignored (cafe finds Café, strasse finds Straße); the
            last word also matches the start of a word (meet finds meeting). Chinese, Japanese and
            Korean text is matched anywhere, from one character. Punctuation and operators are
            searched as text, never interpreted.
            """
    )

    static let limit = OptionSpec.value("limit", "n", "Show at most this many recordings (default 20).")
    static let offset = OptionSpec.value("offset", "n", "Skip this many recordings: --offset 20 shows the second page.")
    static let json = OptionSpec.flag("json", "Print a JSON array of recordings, each with its matches.")

    static let placesPerRecording = 3

    var query: String
    var limit: Int
    var offset: Int
    var json: Bool

    init(arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing <query>") }
        query = arguments.positionals.joined(separator: " ")
        guard !query.allSatisfy(\.isWhitespace) else { throw UsageError("<query> is empty; give the words to find") }
        json = arguments.flag(Self.json)
        let page = try LibraryAccess.page(arguments, limit: Self.limit, offset: Self.offset, fallback: 20)
        limit = page.limit ?? 20
        offset = page.offset
    }

    func run(in context: CommandContext) throws -> Int32 {
        let words = query.split(whereSeparator: \.isWhitespace).count
        if words > SearchQuery.maximumWords {
            context.printError("note: only the first \(SearchQuery.maximumWords) of the \(words) words are searched.")
        }
        let store = try makeStore(context)
        let results = try store.search(SearchRequest(query, limit: limit, offset: offset, placesPerRecording: Self.placesPerRecording))
        defer { LibraryAccess.printUnreadableNote(LibraryAccess.unreadableFolders(store), context) }
        if json {
            try context.printJSON(results)
            return ExitCode.success
        }
        guard !results.isEmpty else {
            // The query is echoed to at most 60 columns: a pasted 100 KB text is not printed back.
            let shown = TerminalText.prefix(query, width: 60)
            context.print(offset == 0 ? "No matches for '\(shown)'." : "No more matches for '\(shown)'.")
            return ExitCode.success
        }
        let (open, close) = context.useColor ? ("\u{1B}[1m", "\u{1B}[0m") : ("[", "]")
        var rows: [[String]] = []
        // Each row's snippet with its text made visible and its matches still marked, by row number:
        // cut to the terminal's width around the first match (`SearchSnippet.fit`).
        var snippets: [Int: String] = [:]
        for result in results {
            if result.hits.isEmpty {  // ranked as a match, with no place to show: the recording still is one
                rows.append([result.recording.id, result.recording.name, "", ""].map(VisibleText.escaped))
            }
            for (index, hit) in result.hits.enumerated() {
                let snippet = Self.visibleMarkedSnippet(hit)
                snippets[rows.count] = snippet
                rows.append([index == 0 ? hit.recordingID : "", index == 0 ? hit.recordingName : "",
                             hit.timeText.map { "[\($0)]" } ?? "(\(hit.field.rawValue))"].map(VisibleText.escaped)
                            + [Self.shown(snippet, open: open, close: close)])
            }
            let shown = result.hits.filter { $0.field == .transcript }.count
            if result.matchingSegments > shown {
                let more = result.matchingSegments - shown
                rows.append(["", "", "", "… \(more) more matching segment\(more == 1 ? "" : "s")"])
            }
        }
        // On a terminal the name, then the snippet (around its first match), are cut to fit its
        // width, and on a narrow one the name and then the time are left out; a pipe gets whole rows.
        let markColumns = LibraryAccess.displayWidth(open)
        context.stdout.write(LibraryAccess.table(rows, escaping: false, width: context.stdoutColumns, cutting: [1, 3], dropping: [1, 2]) { row, column, columns in
            guard column == 3 else { return nil }
            return snippets[row].map { Self.shown(SearchSnippet.fit($0, width: columns, markColumns: markColumns), open: open, close: close) }
        })
        if results.count == limit {
            context.print("More may follow: --offset \(offset + limit).")
        }
        return ExitCode.success
    }

    /// The hit's snippet with its text made visible (`VisibleText`), its matches still marked
    /// (`SearchHit.matchStart`, `matchEnd`).
    static func visibleMarkedSnippet(_ hit: SearchHit) -> String {
        // Escaped a run at a time between the markers, found as bytes (each is one byte, a control
        // character that is always a character of its own).
        let marked = hit.markedSnippet
        let start = SearchHit.matchStart.utf8.first!, end = SearchHit.matchEnd.utf8.first!
        var text = ""
        var runStart = marked.utf8.startIndex
        var index = runStart
        while index < marked.utf8.endIndex {
            let byte = marked.utf8[index]
            if byte == start || byte == end {
                text += VisibleText.escaped(String(marked[runStart..<index]))
                text.unicodeScalars.append(marked.unicodeScalars[index])
                runStart = marked.utf8.index(after: index)
            }
            index = marked.utf8.index(after: index)
        }
        return text + VisibleText.escaped(String(marked[runStart...]))
    }

    /// A marked snippet with each match between `open` and `close`.
    static func shown(_ marked: String, open: String, close: String) -> String {
        // On bytes (each marker is one byte): Foundation's replacing would bridge every snippet to NSString.
        let start = SearchHit.matchStart.utf8.first, end = SearchHit.matchEnd.utf8.first
        var bytes: [UInt8] = []
        bytes.reserveCapacity(marked.utf8.count + 16)
        for byte in marked.utf8 {
            switch byte {
            case start: bytes += open.utf8
            case end: bytes += close.utf8
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
