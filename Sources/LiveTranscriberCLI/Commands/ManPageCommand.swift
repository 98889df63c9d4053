import Foundation

/// `livetranscriber manpage`: prints the manual page in roff (`make install` installs it as livetranscriber.1).
struct ManPageCommand: CLICommand {
    static let spec = CommandSpec(
        name: "manpage",
        abstract: "Print the manual page (roff), generated from every command's help.",
        discussion: "To read it without installing: livetranscriber manpage | man -l -"
    )

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
    }

    func run(in context: CommandContext) throws -> Int32 {
        context.stdout.write(ManPage.roff(commands: context.programCommands, version: LiveTranscriberCommandLine.version))
        return ExitCode.success
    }
}
