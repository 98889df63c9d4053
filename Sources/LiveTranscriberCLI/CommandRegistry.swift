/// The subcommands, in the order help lists them. Add a command here and in its own file under `Commands/`.
enum CommandRegistry {
    static let all: [CommandEntry] = [
        CommandEntry(ListCommand.self),
        CommandEntry(ShowCommand.self),
        CommandEntry(SearchCommand.self),
        CommandEntry(RenameCommand.self),
        CommandEntry(TagCommand.self),
        CommandEntry(DeleteCommand.self),
        CommandEntry(RecoverCommand.self),
        CommandEntry(ReindexCommand.self),
    ]
}
