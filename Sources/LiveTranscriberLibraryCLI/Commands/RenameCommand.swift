import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// `livetranscriber rename ID NAME`.
struct RenameCommand: CLICommand {
    static let spec = CommandSpec(
        name: "rename",
        abstract: "Rename a recording.",
        arguments: [
            ArgumentSpec("<id>", "A recording id, a unique prefix of one, or 'latest'."),
            ArgumentSpec("<name>", "The new name (quote it if it has spaces)."),
        ],
        options: [json]
    )

    static let json = OptionSpec.flag("json", "Print the renamed recording as JSON.")

    var reference: String
    var name: String
    var json: Bool

    init(arguments: ParsedArguments) throws {
        switch arguments.positionals.count {
        case 0: throw UsageError("missing ID and NAME")
        case 1: throw UsageError("missing NAME")
        case 2: break
        default: throw UsageError("unexpected argument '\(arguments.positionals[2])'; quote a name with spaces")
        }
        reference = arguments.positionals[0]
        name = try OptionParsing.recordingName(arguments.positionals[1], option: "NAME")
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        let recording = try store.rename(try store.resolve(reference).id, to: name)
        context.saved.add("\(recording.id) was renamed to '\(recording.name)'")
        if json {
            try context.printJSON(recording)
        } else {
            context.print("Renamed \(recording.id) to '\(recording.name)'.")
        }
        return ExitCode.success
    }
}
