/// The subcommands, in the order help lists them. Add a command here and in its own file under `Commands/`.
enum CommandRegistry {
    static let all: [CommandEntry] = [
        CommandEntry(RecordCommand.self),
        CommandEntry(ImportCommand.self),
        CommandEntry(ListCommand.self),
        CommandEntry(ShowCommand.self),
        CommandEntry(SearchCommand.self),
        CommandEntry(ExportCommand.self),
        CommandEntry(RenameCommand.self),
        CommandEntry(TagCommand.self),
        CommandEntry(DeleteCommand.self),
        CommandEntry(SummarizeCommand.self),
        CommandEntry(RetranscribeCommand.self),
        CommandEntry(RecoverCommand.self),
        CommandEntry(ReindexCommand.self),
        CommandEntry(ActivityPreviewCommand.self),
        CommandEntry(CompletionCommand.self),
        CommandEntry(ManPageCommand.self),
    ]
}
