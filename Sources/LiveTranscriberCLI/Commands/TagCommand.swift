import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber tag ID --add T --remove T`.
struct TagCommand: CLICommand {
    static let spec = CommandSpec(
        name: "tag",
        abstract: "Add or remove a recording's tags, or print them.",
        usage: "tag <id> [--add <tag>]... [--remove <tag>]... [--json]",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique prefix of one, or 'latest'.")],
        options: [
            .value("add", "tag", "Add this tag (repeatable).", repeatable: true),
            .value("remove", "tag", "Remove this tag (repeatable).", repeatable: true),
            .flag("json", "Print the recording as JSON."),
        ]
    )

    var reference: String
    var add: [String]
    var remove: [String]
    var json: Bool

    init(arguments: ParsedArguments) throws {
        reference = try LibraryAccess.singleID(arguments)
        add = arguments.allValues("add").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        remove = arguments.allValues("remove").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if add.contains("") || remove.contains("") { throw UsageError("a tag cannot be empty") }
        try add.forEach { try OptionParsing.checkTag($0) }
        json = arguments.flag("json")
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try LibraryAccess.open(context)
        var recording = try store.resolve(reference)
        if !add.isEmpty || !remove.isEmpty {
            recording = try store.changeTags(recording.id, adding: add, removing: remove)
            context.saved.add("the tags of \(recording.id) were saved")
        }
        if json {
            try LibraryAccess.printJSON(recording, context)
        } else {
            context.print("Tags of \(recording.id): " + (recording.tags.isEmpty ? "(none)" : recording.tags.joined(separator: ", ")))
        }
        return ExitCode.success
    }
}
