/// The subcommands of the full program, in the order help lists them. Add a command here and in
/// its own file under `Commands/`; one that needs only the library goes in `LibraryCommands`
/// instead (the library-only program runs those of `LibraryCommands.light` itself). `serve` lives
/// in its own module (`LiveTranscriberServe`), which this one does not link: the program that
/// ships it passes its entry, and it is listed in its place.
enum CommandRegistry {
    /// - Parameter serve: `serve`'s entry (`ServeCommand.entry` in `LiveTranscriberServe`).
    /// - Returns: every command, `serve` between `reindex` and `activity preview`.
    static func all(serve: CommandEntry) -> [CommandEntry] { [
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
        serve,
        CommandEntry(ActivityPreviewCommand.self),
        CommandEntry(CompletionCommand.self),
        CommandEntry(ManPageCommand.self),
    ] }
}
