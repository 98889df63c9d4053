import Foundation
import LiveTranscriberLibraryCLI
import LiveTranscriberStore

// The library commands (list, show, search, export, rename, tag, speaker, delete: `LibraryCommands.light`)
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
if runner.command(for: arguments) != nil {
    guard LibraryStore.hasDraftsToRecover(in: context.dataDirectory) else { exit(runner.main(arguments, context: context)) }
    // A draft to recover first, and no full program to recover it: the library commands still run
    // here, on the library as it is, and say once what waits and what it needs.
    if case .failure(let missing) = FullProgram.findForThisProcess() {
        let code = runner.main(arguments, context: context)
        context.printError(missing.recoveryWaitingNote)
        exit(code)
    }
}
exit(FullProgram.replaceProcess())
