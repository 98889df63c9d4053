import Foundation
@_exported import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberLinux

/// The full `livetranscriber` program (`livetranscriber-full`): every command, callable in-process
/// by tests. The `livetranscriber` program runs the library commands itself and hands everything
/// else here (docs/architecture.md, "Two programs").
///
/// ```swift
/// let program = LiveTranscriberCommandLine(serve: ServeCommand.entry)  // import LiveTranscriberServe
/// exit(program.main(LiveTranscriberCommandLine.processArguments))
/// ```
public struct LiveTranscriberCommandLine: Sendable {
    /// Every subcommand, in the order `--help` lists them.
    public let commands: [CommandEntry]
    let runner: CommandRunner

    /// - Parameter serve: `serve`'s entry, from `LiveTranscriberServe` (which this module does not
    ///   link); help, the man page and completions list it in its place.
    public init(serve: CommandEntry) {
        commands = CommandRegistry.all(serve: serve)
        runner = CommandRunner(commands: commands)
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public func main(_ arguments: [String], context: CommandContext = .process) -> Int32 {
        runner.main(arguments, context: Self.full(context))
    }

    /// This process's arguments (without the program name) from the bytes it was given: a file
    /// name that is not UTF-8 keeps its bytes (`PathBytes`), where `CommandLine.arguments` would
    /// replace them with U+FFFD and name another file.
    public static var processArguments: [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return PathBytes.string(Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument))))
        }
    }

    /// Parses a command as `main` does (`CommandRunner.parse`), for tests.
    package static func parse<Command>(
        _ arguments: [String], spec: CommandSpec, context: CommandContext, make: (ParsedArguments) throws -> Command
    ) -> CommandRunner.Parsed<Command> {
        CommandRunner.parse(arguments, spec: spec, context: context, make: make)
    }

    /// Runs a built command as `main` does (`CommandRunner.execute`), for tests.
    package static func execute(_ command: any CLICommand, context: CommandContext) -> Int32 {
        CommandRunner.execute(command, context: full(context))
    }

    /// A user-facing sentence for any error.
    public static func describe(_ error: any Error) -> String { CommandRunner.describe(error) }

    public static let version = CommandRunner.version

    /// `context` with libsndfile as its audio reader, so opening the library recovers drafts.
    package static func full(_ context: CommandContext) -> CommandContext {
        var context = context
        if context.audioMeasure == nil { context.audioMeasure = SndFileAudioMeasure() }
        return context
    }
}
