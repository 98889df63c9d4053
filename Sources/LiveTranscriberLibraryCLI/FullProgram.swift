import Foundation

/// The full program, `livetranscriber-full`, which the library-only `livetranscriber` hands
/// every other command to.
public enum FullProgram {
    /// Its file name.
    public static let name = "livetranscriber-full"

    /// Where it is looked for, first found wins: next to `program` (a build folder), then in
    /// `../lib/livetranscriber/` from it (`make install`: `<prefix>/bin/livetranscriber` and
    /// `<prefix>/lib/livetranscriber/livetranscriber-full`).
    public static func candidates(besides program: URL) -> [URL] {
        let folder = program.deletingLastPathComponent()
        return [folder.appendingPathComponent(name),
                folder.appendingPathComponent("../lib/livetranscriber/\(name)").standardizedFileURL]
    }

    /// Why the full program cannot be run.
    public struct NotRunnable: Error, Equatable {
        /// What is wrong: "livetranscriber-full, which is not installed: looked for A and B".
        public var problem: String

        /// One line for stderr, without "error: ": "this command needs PROBLEM; reinstall livetranscriber (make install)".
        public var message: String { "this command needs \(problem); reinstall livetranscriber (make install)" }

        /// The note a library command (`list`, `search`, `show`…) ends with when it ran in the light
        /// program because this full program is missing, while a draft left by a crash waits to be recovered.
        public var recoveryWaitingNote: String {
            "note: a recording interrupted by a crash is waiting to be recovered; that needs \(problem); "
                + "reinstall livetranscriber (make install), then run 'livetranscriber recover'. Until then it is not in the library."
        }
    }

    /// The full program next to this process's executable (see `candidates`), or why not.
    public static func findForThisProcess() -> Result<URL, NotRunnable> {
        let program = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        return find(in: candidates(besides: program))
    }

    /// The first of `places` that is an executable file; else why not: the first one that exists
    /// but cannot be run (not executable, or a folder) is named as such, and when none exists,
    /// every place looked in is named.
    public static func find(in places: [URL]) -> Result<URL, NotRunnable> {
        if let full = places.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) && !isFolder($0) }) {
            return .success(full)
        }
        if let present = places.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            return .failure(NotRunnable(problem: "\(name), which exists at \(present.path) but cannot be run "
                + "(\(isFolder(present) ? "it is a folder" : "not executable"))"))
        }
        return .failure(NotRunnable(problem: "\(name), which is not installed: looked for " + places.map(\.path).joined(separator: " and ")))
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    /// Replaces this process with the full program, given this process's own arguments unchanged
    /// (`execv`: the same process id, standard streams, environment, signal handling left to
    /// it, and its exit code is the command's). Returns only when that fails: it prints one line
    /// on stderr and returns 1.
    public static func replaceProcess() -> Int32 {
        let full: URL
        switch findForThisProcess() {
        case .success(let found): full = found
        case .failure(let problem):
            FileHandle.standardError.write(Data("error: \(problem.message)\n".utf8))
            return 1
        }
        // SIGPIPE back to the default, as the full program expects to find it before setting its own.
        signal(SIGPIPE, SIG_DFL)
        execv(full.path, CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        FileHandle.standardError.write(Data("error: cannot run \(full.path): \(reason)\n".utf8))
        return 1
    }
}
