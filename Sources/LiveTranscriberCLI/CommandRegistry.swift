/// The subcommands, in the order help lists them. Add a command here and in its own file under `Commands/`.
enum CommandRegistry {
    static let all: [CommandEntry] = [
        CommandEntry(ExportCommand.self),
        CommandEntry(SummarizeCommand.self),
        CommandEntry(RetranscribeCommand.self),
    ]
}
