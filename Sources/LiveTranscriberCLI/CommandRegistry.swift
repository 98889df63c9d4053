/// The subcommands, in the order help lists them. Add a command here and in its own file under `Commands/`.
enum CommandRegistry {
    static let all: [CommandEntry] = [
        CommandEntry(RecordCommand.self),
        CommandEntry(ImportCommand.self),
        CommandEntry(ExportCommand.self),
        CommandEntry(SummarizeCommand.self),
        CommandEntry(RetranscribeCommand.self),
        CommandEntry(ActivityPreviewCommand.self),
    ]
}
