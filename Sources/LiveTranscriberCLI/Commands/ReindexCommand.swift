import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber reindex`: rebuilds library.sqlite from the recording folders.
struct ReindexCommand: CLICommand {
    static let spec = CommandSpec(
        name: "reindex",
        abstract: "Rebuild the search index from the recording folders.",
        options: [json],
        discussion: """
            A recording folder whose metadata.json or transcript.json cannot be read is named in a
            warning on stderr and left out of the index; the folder is not changed. The exit status
            is still 0: the index holds every recording that can be read, and 'list' keeps naming
            the ones left out until they are fixed and reindexed.
            """
    )

    static let json = OptionSpec.flag("json", "Print {\"indexed\", \"unreadable\"} as JSON.")

    var json: Bool

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        json = arguments.flag(Self.json)
    }

    struct Report: Encodable {
        var indexed: Int
        var unreadable: [String: String]
    }

    func run(in context: CommandContext) throws -> Int32 {
        try LibraryAccess.checkDataDirectory(context)
        // Nothing to index where no library exists yet; an index is not created for it either.
        let result = try LibraryStore.exists(in: context.dataDirectory)
            ? try LibraryAccess.open(context).reindex() : LibraryStore.ReindexResult(indexed: 0, unreadable: [])
        if json {
            let unreadable = Dictionary(result.unreadable.map { ($0.id, $0.problem.description) }, uniquingKeysWith: { first, _ in first })
            try context.printJSON(Report(indexed: result.indexed, unreadable: unreadable))
        } else {
            for folder in result.unreadable {
                context.printError("warning: skipped \(folder)")
            }
            context.print("Indexed \(Plural.count(result.indexed, "recording")).")
        }
        return ExitCode.success
    }
}
