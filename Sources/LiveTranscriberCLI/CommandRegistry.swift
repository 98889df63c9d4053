/// The subcommands, in the order help lists them. Add a command here and in its own file under
/// `Commands/`; one that needs only the library goes in `LibraryCommands` instead (the
/// library-only program runs those of `LibraryCommands.light` itself).
enum CommandRegistry {
    static let all: [CommandEntry] = [
        CommandEntry(RecordCommand.self),
        CommandEntry(ImportCommand.self),
        LibraryCommands.list,
        LibraryCommands.show,
        LibraryCommands.search,
        LibraryCommands.export,
        LibraryCommands.rename,
        LibraryCommands.tag,
        LibraryCommands.speaker,
        LibraryCommands.delete,
        CommandEntry(SummarizeCommand.self),
        CommandEntry(RetranscribeCommand.self),
        CommandEntry(RecoverCommand.self),
        CommandEntry(ReindexCommand.self),
        CommandEntry(ServeCommand.self),
        CommandEntry(ActivityPreviewCommand.self),
        CommandEntry(CompletionCommand.self),
        CommandEntry(ManPageCommand.self),
    ]
}
