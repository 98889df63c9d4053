import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// `livetranscriber tag ID --add T --remove T`.
struct TagCommand: CLICommand {
    static let spec = CommandSpec(
        name: "tag",
        abstract: "Add or remove a recording's tags, or print them.",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique prefix of one, or 'latest'.")],
        options: [add, remove, json]
    )

    static let add = OptionSpec.value("add", "tags", "Add these tags, separated by commas (repeatable).", repeatable: true)
    static let remove = OptionSpec.value("remove", "tags", "Remove these tags, separated by commas (repeatable, any case).", repeatable: true)
    static let json = OptionSpec.flag("json", "Print the recording as JSON.")

    var reference: String
    var add: [String]
    var remove: [String]
    var json: Bool

    init(arguments: ParsedArguments) throws {
        reference = try LibraryAccess.singleID(arguments)
        // Each value may hold several tags separated by commas, as --tags does (RecordingTags).
        // A value with no tag in it is refused there too ("a tag cannot be empty").
        add = try OptionParsing.tags(arguments.allValues(Self.add))
        remove = try OptionParsing.tags(arguments.allValues(Self.remove))
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        var recording = try store.resolve(reference)
        if !add.isEmpty || !remove.isEmpty {
            recording = try store.changeTags(recording.id, adding: add, removing: remove)
            context.saved.add("the tags of \(recording.id) were saved")
        }
        if json {
            try context.printJSON(recording)
        } else {
            context.print("Tags of \(recording.id): " + (recording.tags.isEmpty ? "(none)" : recording.tags.joined(separator: ", ")))
        }
        return ExitCode.success
    }
}
