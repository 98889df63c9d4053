/// The commands that only read or change the library (list, show, search, export, rename, tag,
/// delete): they need the core, the store and SQLite, nothing else, so the `livetranscriber`
/// program runs them itself and starts in a few milliseconds. Every other command, and help that
/// lists every command, is the full program's (`livetranscriber-full`, see docs/cli.md
/// "Two programs"). Add a command that needs no audio, engine or network here; any other in
/// `LiveTranscriberCLI/CommandRegistry.swift`.
public enum LibraryCommands {
    /// In the order `--help` lists them (the full program lists them together, after `import`).
    public static let all: [CommandEntry] = [
        CommandEntry(ListCommand.self),
        CommandEntry(ShowCommand.self),
        CommandEntry(SearchCommand.self),
        CommandEntry(ExportCommand.self),
        CommandEntry(RenameCommand.self),
        CommandEntry(TagCommand.self),
        CommandEntry(DeleteCommand.self),
    ]
}
