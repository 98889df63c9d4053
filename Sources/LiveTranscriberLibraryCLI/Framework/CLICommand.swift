import Foundation
import LiveTranscriberCore

/// A subcommand: parsed and validated before it runs, one type per file under `Commands/`.
public protocol CLICommand: SendableMetatype {
    /// Name, help and options.
    static var spec: CommandSpec { get }
    /// Builds the command from parsed arguments; throws `UsageError` for what parsing cannot see
    /// (a missing positional, a bad value) so nothing runs with bad arguments.
    init(arguments: ParsedArguments) throws
    /// Does the work; returns the exit code. Errors thrown here print on stderr and exit 1.
    func run(in context: CommandContext) throws -> Int32
}

/// A registered subcommand: its spec and a way to build and run it.
public struct CommandEntry: Sendable {
    public let spec: CommandSpec
    package let make: @Sendable (ParsedArguments) throws -> any CLICommand

    public init<Command: CLICommand>(_ type: Command.Type) {
        spec = Command.spec
        make = { try Command(arguments: $0) }
    }
}

/// Exit codes, after sysexits.h.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    /// Stopped by Ctrl-C before finishing (128 + SIGINT, as shells report it).
    public static let interrupted: Int32 = 130

    /// The one convention for a command a signal stopped before it finished its work: 128 + the
    /// signal's number, as a shell reports a process the signal killed (Ctrl-C 130, SIGTERM 143,
    /// SIGHUP 129), whether the command caught the signal to clean up or not.
    public static func stopped(by signal: Int32) -> Int32 { 128 + signal }
}

/// Runs a command line against a set of commands: the library-only program runs it with
/// `LibraryCommands.light`, the full program (`LiveTranscriberCommandLine` in `LiveTranscriberCLI`)
/// with every command. Parsing, help, errors and exit codes are the same in both.
public struct CommandRunner: Sendable {
    /// The commands this program runs, in the order `--help` lists them.
    public let commands: [CommandEntry]

    public init(commands: [CommandEntry]) {
        self.commands = commands
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public func main(_ arguments: [String], context: CommandContext) -> Int32 {
        var context = context
        context.programCommands = commands.map(\.spec)
        let code = dispatch(arguments, context: context)
        // Output that could not be written (a full disk, a closed pipe) is a failure too.
        if let stdout = context.stdout as? FileDescriptorOutput, let failure = stdout.writeFailure {
            // A reader that stopped reading (`list | head -1`) wanted no more: no error line, and the
            // exit code of a process SIGPIPE ended, unless the output that went missing said what was saved.
            if stdout.readerWentAway && context.saved.all.isEmpty { return ExitCode.stopped(by: SIGPIPE) }
            context.printErrorLine("error: could not write to standard output: \(failure)")
            // The report that went missing said what was saved: say it where it can be read.
            for line in context.saved.all { context.printError("note: \(line).") }
            return code == ExitCode.success ? ExitCode.failure : code
        }
        return code
    }

    /// The command `arguments` name (one word, or two for a nested command such as "activity
    /// preview") with the arguments after its name; nil when they name none of `commands`.
    public func command(for arguments: [String]) -> (entry: CommandEntry, rest: [String])? {
        guard let first = arguments.first else { return nil }
        if arguments.count > 1, let nested = commands.first(where: { $0.spec.name == "\(first) \(arguments[1])" }) {
            return (nested, Array(arguments.dropFirst(2)))
        }
        return commands.first(where: { $0.spec.name == first }).map { ($0, Array(arguments.dropFirst())) }
    }

    func dispatch(_ arguments: [String], context: CommandContext) -> Int32 {
        guard let first = arguments.first, first != "-h", first != "--help", first != "help" else {
            // `help CMD`, `--help CMD` and `-h CMD` all show CMD's help.
            if arguments.count > 1, !["-h", "--help", "help"].contains(arguments[1]) {
                return dispatch(Array(arguments.dropFirst()) + ["--help"], context: context)
            }
            // No command at all is a usage error: the overview goes to stderr with 64, as every
            // usage error's usage line does; asked for (--help, help) it goes to stdout with 0.
            guard !arguments.isEmpty else {
                context.stderr.write(overview)
                return ExitCode.usage
            }
            context.stdout.write(overview)
            return ExitCode.success
        }
        if first == "--version" {
            guard arguments.count == 1 else {
                context.printErrorLine("error: --version takes nothing after it. See 'livetranscriber --help'.")
                return ExitCode.usage
            }
            context.print("livetranscriber \(Self.version)")
            return ExitCode.success
        }
        guard let (command, rest) = command(for: arguments) else {
            let group = commands.filter { $0.spec.name.hasPrefix(first + " ") }
            if !group.isEmpty {
                if arguments.dropFirst().contains("--help") || arguments.dropFirst().contains("-h") {
                    context.stdout.write("USAGE: livetranscriber \(first) <subcommand>\n\nSUBCOMMANDS:\n"
                        + group.map { "  \($0.spec.name)  \($0.spec.abstract)\n" }.joined()
                        + "\nSee 'livetranscriber \(group[0].spec.name) --help'.\n")
                    return ExitCode.success
                }
                let names = group.map(\.spec.name).joined(separator: ", ")
                if let given = arguments.dropFirst().first, !given.hasPrefix("-") {
                    context.printErrorLine("error: unknown subcommand '\(first) \(VisibleText.escaped(given))'; use " + names)
                } else {
                    context.printErrorLine("error: '\(first)' needs a subcommand: " + names)
                }
                return ExitCode.usage
            }
            context.printErrorLine("error: unknown command '\(first)'. See 'livetranscriber --help'.")
            return ExitCode.usage
        }
        return Self.run(command, rest, context: context)
    }

    static func run(_ command: CommandEntry, _ arguments: [String], context: CommandContext) -> Int32 {
        switch parse(arguments, spec: command.spec, context: context, make: command.make) {
        case .exit(let code): return code
        case .command(let instance): return execute(instance, context: context)
        }
    }

    /// A parsed command, or the exit code when parsing ended the run (help, a usage error).
    package enum Parsed<Command> {
        case command(Command)
        case exit(Int32)
    }

    /// Parses `arguments` against `spec` and builds the command; prints help (exit 0) or the
    /// usage error with the usage line (exit 64). Tests call it too, so they see what users see.
    package static func parse<Command>(
        _ arguments: [String], spec: CommandSpec, context: CommandContext, make: (ParsedArguments) throws -> Command
    ) -> Parsed<Command> {
        do {
            let parsed = try ParsedArguments(arguments, spec: spec)
            if parsed.wantsHelp {
                context.stdout.write(spec.helpText)
                return .exit(ExitCode.success)
            }
            return .command(try make(parsed))
        } catch let error as UsageError {
            context.printErrorLine("error: \(error.message)")
            context.printError("usage: livetranscriber \(spec.usage)")
            context.printError("See 'livetranscriber \(spec.name) --help'.")
            return .exit(ExitCode.usage)
        } catch {
            context.printErrorLine("error: \(describe(error))")
            return .exit(ExitCode.usage)
        }
    }

    /// Runs a built command: its exit code, or 64 for a usage error and 1 for any other error,
    /// with one line on stderr.
    package static func execute(_ command: any CLICommand, context: CommandContext) -> Int32 {
        do {
            return try command.run(in: context)
        } catch let error as UsageError {
            context.printErrorLine("error: \(error.message)")
            return ExitCode.usage
        } catch {
            context.printErrorLine("error: \(describe(error))")
            return ExitCode.failure
        }
    }

    /// A user-facing sentence for any error.
    public static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            return describeFileSystemError(nsError)
        }
        if let error = error as? any LocalizedError, let description = error.errorDescription { return description }
        return String(describing: error)
    }

    /// "PATH: No such file or directory" from Foundation's file errors, rather than their dump.
    private static func describeFileSystemError(_ error: NSError) -> String {
        let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        let reason: String
        if let posix, posix.domain == NSPOSIXErrorDomain {
            reason = String(cString: strerror(Int32(posix.code)))
        } else if let description = error.userInfo[NSLocalizedDescriptionKey] as? String {
            reason = description
        } else if let code = cocoaReasons[error.code] {
            reason = String(cString: strerror(code))
        } else {
            reason = "cannot be read or written (\(error.domain) \(error.code))"
        }
        guard let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path else {
            return reason
        }
        // The usual cause of a path that cannot be made: a file where a folder should be.
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        var isFolder: ObjCBool = false
        while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            ancestor.deleteLastPathComponent()
        }
        if ancestor.path != "/" && !isFolder.boolValue {
            return "\(path): \(ancestor.path) is a file, not a folder"
        }
        return "\(path): \(reason)"
    }

    /// The POSIX error each of Foundation's file error codes stands for, so its reason reads as the
    /// system's ("Permission denied") where Foundation gives no underlying error (as on Linux).
    private static let cocoaReasons: [Int: Int32] = [
        CocoaError.fileNoSuchFile.rawValue: ENOENT,
        CocoaError.fileReadNoSuchFile.rawValue: ENOENT,
        CocoaError.fileReadNoPermission.rawValue: EACCES,
        CocoaError.fileWriteNoPermission.rawValue: EACCES,
        CocoaError.fileWriteOutOfSpace.rawValue: ENOSPC,
        CocoaError.fileWriteVolumeReadOnly.rawValue: EROFS,
        CocoaError.fileWriteFileExists.rawValue: EEXIST,
        CocoaError.fileReadTooLarge.rawValue: EFBIG,
    ]

    public static let version = "0.1.0"

    /// The help overview: every command of `commands`, one line each.
    var overview: String {
        var text = "OVERVIEW: Live transcription recorder with a searchable library.\n\n"
        text += "USAGE: livetranscriber <subcommand> [options]\n\nSUBCOMMANDS:\n"
        for command in commands {
            text += "  " + command.spec.name.padding(toLength: 22, withPad: " ", startingAt: 0) + command.spec.abstract + "\n"
        }
        text += "\n  See 'livetranscriber <subcommand> --help' for details.\n"
        return text
    }
}
