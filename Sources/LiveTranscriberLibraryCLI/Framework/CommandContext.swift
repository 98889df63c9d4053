import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes text: the terminal, a file, or a buffer in tests.
public protocol TextOutput: AnyObject, Sendable {
    func write(_ text: String)
    /// True when this is an interactive terminal (enables the live view and colors).
    var isTerminal: Bool { get }
}

/// Writes to a file descriptor (1 for stdout, 2 for stderr).
///
/// A failed write (a full disk, a reader that went away) never traps: the first failure is kept
/// in `writeFailure`, later writes are skipped, and the command line reports it when the command
/// is done, so a recording still gets saved when its output cannot be shown.
public final class FileDescriptorOutput: TextOutput, Sendable {
    private let handle: FileHandle
    /// The first write failure, and whether it was the reader going away; writes hold the lock, so
    /// two threads' lines never interleave.
    private let state = Mutex<(failure: String?, closedByReader: Bool)>((nil, false))
    public let isTerminal: Bool

    /// - Parameter environment: decides with `isatty` whether this is an interactive terminal
    ///   (`TerminalCardRenderer.isInteractiveTerminal`: `TERM=dumb` is not).
    public init(fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false)
        isTerminal = TerminalCardRenderer.isInteractiveTerminal(isatty: isatty(fileDescriptor) == 1, environment: environment)
    }

    public func write(_ text: String) {
        state.withLock { state in
            guard state.failure == nil else { return }
            do {
                try handle.write(contentsOf: Data(text.utf8))
            } catch {
                state = (CommandRunner.describe(error), Self.isBrokenPipe(error))
            }
        }
    }

    /// Why writing failed, if it did.
    public var writeFailure: String? { state.withLock { $0.failure } }

    /// True when writing failed because the reader went away (EPIPE: `list | head -1`).
    public var readerWentAway: Bool { state.withLock { $0.closedByReader } }

    /// True for EPIPE, as Foundation reports it (a Cocoa write error whose underlying error is POSIX's).
    private static func isBrokenPipe(_ error: any Error) -> Bool {
        let error = error as NSError
        let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        return posix?.domain == NSPOSIXErrorDomain && posix?.code == Int(EPIPE)
    }
}

/// Collects text in memory, for tests.
public final class BufferOutput: TextOutput, Sendable {
    private let buffer = Mutex("")
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String { buffer.withLock { $0 } }
}

/// What a command saved, in words ("the recording was saved as 20261129-204112-3f9a"), so the
/// command line can say it on stderr when stdout could not carry the command's own report.
public final class SavedChanges: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// Adds one line, such as "the recording was saved as ID ('Name', 0:12)".
    public func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything added, in order.
    public var all: [String] { lines.withLock { $0 } }
}

/// What a command runs with: its output streams and environment. Tests build one in memory.
public struct CommandContext: Sendable {
    public var stdout: any TextOutput
    public var stderr: any TextOutput
    public var environment: [String: String]
    /// What the command saved; said on stderr when stdout fails.
    public let saved = SavedChanges()
    /// Reads recordings' audio files, which recovering a draft left by a crash needs (libsndfile's
    /// in the full program, which sets it before a command runs). Nil in the library-only program:
    /// it opens the library without recovering drafts, having handed any command that finds
    /// drafts to recover to the full program first (see `LibraryStore.hasDraftsToRecover`).
    public var audioMeasure: (any AudioFileMeasuring)?
    /// Every command of the program running this one, in help order (set by `CommandRunner.main`):
    /// what `completion` and `manpage` describe. Empty until a runner sets it.
    package var programCommands: [CommandSpec] = []

    public init(stdout: any TextOutput, stderr: any TextOutput, environment: [String: String]) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
    }

    /// The process's real streams and environment.
    public static var process: CommandContext {
        let environment = processEnvironment()
        return CommandContext(
            stdout: FileDescriptorOutput(fileDescriptor: 1, environment: environment),
            stderr: FileDescriptorOutput(fileDescriptor: 2, environment: environment),
            environment: environment
        )
    }

    /// The process's environment, read from `environ` (what `ProcessInfo.environment` returns, at a
    /// fraction of its first-call cost: a command that answers in milliseconds pays for every one).
    /// A variable set twice keeps its first value, as `getenv` reads it.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: 0x3D) {
                let name = String(text[..<equals])
                if environment[name] == nil { environment[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return environment
    }

    /// The data directory: `$LIVETRANSCRIBER_HOME`, else `$XDG_DATA_HOME/livetranscriber`,
    /// else `~/.local/share/livetranscriber`. A relative `XDG_DATA_HOME` is ignored, as the XDG
    /// Base Directory specification says; a `LIVETRANSCRIBER_HOME` of spaces only counts as unset
    /// (as an empty one does), never as a folder named " ".
    public var dataDirectory: URL {
        if let home = libraryHome {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("livetranscriber", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/livetranscriber", isDirectory: true)
    }

    /// The variable that chose `dataDirectory`, for messages: "LIVETRANSCRIBER_HOME", "XDG_DATA_HOME" or "HOME".
    public var dataDirectorySource: String {
        if libraryHome != nil { return "LIVETRANSCRIBER_HOME" }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return "XDG_DATA_HOME" }
        return "HOME"
    }

    /// `$LIVETRANSCRIBER_HOME` unless unset, empty or only whitespace.
    private var libraryHome: String? {
        environment["LIVETRANSCRIBER_HOME"].flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
    }

    /// True when colors may be used on stdout: a terminal, and NO_COLOR unset or empty.
    public var useColor: Bool {
        TerminalCardRenderer.colorEnabled(environment: environment, isTerminal: stdout.isTerminal)
    }

    /// Columns a table on stdout may take: nil when stdout is not a terminal (a pipe or a file
    /// gets whole rows); else `COLUMNS` when it is a positive number, else the terminal's own
    /// width (TIOCGWINSZ on descriptor 1), else 80.
    public var stdoutColumns: Int? {
        guard stdout.isTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Prints `text` and a newline on stdout, with control and invisible format characters made
    /// visible (`VisibleText`): messages quote names, paths and transcripts from users and files.
    public func print(_ text: String) { stdout.write(VisibleText.escapedKeepingLines(text) + "\n") }

    /// Prints `text` and a newline on stderr, with control and invisible format characters made
    /// visible (`VisibleText`): messages quote paths, names and file contents.
    public func printError(_ text: String) { stderr.write(VisibleText.escapedKeepingLines(text) + "\n") }

    /// Prints `text` as one line on stderr: every control character, line breaks included, made
    /// visible (`VisibleText.escaped`). For error lines, which quote paths and names that may hold
    /// a line break ("no such file: a\u{A}b.wav").
    public func printErrorLine(_ text: String) { stderr.write(VisibleText.escaped(text) + "\n") }

    /// Prints `value` as the project's JSON (`JSONText`) and a newline on stdout.
    public func printJSON(_ value: some Encodable) throws { stdout.write(try JSONText.string(value) + "\n") }
}
