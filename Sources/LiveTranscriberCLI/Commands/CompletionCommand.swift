import Foundation

/// `livetranscriber completion bash|zsh|fish`: prints a shell completion script (`make install` installs them).
struct CompletionCommand: CLICommand {
    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        usage: "completion bash|zsh|fish",
        arguments: [ArgumentSpec("<shell>", "bash, zsh or fish.")],
        discussion: "'make install' installs all three; to try one now: source <(livetranscriber completion bash)"
    )

    let shell: ShellCompletion

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("<shell>", min: 1, max: 1)
        guard let shell = ShellCompletion(rawValue: arguments.positionals[0]) else {
            throw UsageError("unknown shell '\(arguments.positionals[0])'; use bash, zsh or fish")
        }
        self.shell = shell
    }

    func run(in context: CommandContext) throws -> Int32 {
        context.stdout.write(shell.script(for: context.programCommands))
        return ExitCode.success
    }
}
