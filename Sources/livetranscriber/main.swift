import Foundation
import LiveTranscriberLibraryCLI
import LiveTranscriberStore

// The library commands (list, show, search, export, rename, tag, delete: `LibraryCommands.light`)
// run here, with only the core, the store and SQLite loaded. Anything else (recording, importing,
// help listing every command…), and any library command that finds drafts left by a crash to
// recover first, is handed to the full program with the same arguments (docs/architecture.md,
// "Two programs").

// A closed pipe on stdout (`livetranscriber list | head -1`) makes the write fail instead of
// killing the process; the failure is reported at the end.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
let runner = CommandRunner(commands: LibraryCommands.light)
let context = CommandContext.process
if runner.command(for: arguments) != nil, !LibraryStore.hasDraftsToRecover(in: context.dataDirectory) {
    exit(runner.main(arguments, context: context))
}
exit(FullProgram.replaceProcess())
