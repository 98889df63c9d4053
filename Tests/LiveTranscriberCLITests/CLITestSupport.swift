import Foundation
import LiveTranscriberTestSupport
import LiveTranscriberCLI

/// The result of one command line run in-process.
struct CommandResult {
    var exitCode: Int32
    var stdout: String
    var stderr: String
}

/// A temporary library folder for one test, removed at deinit.
final class TemporaryLibrary {
    let url: URL

    init() throws {
        url = try TestFolders.make("lt-cli")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A library in `url` (made if missing), such as a folder on a `SmallDisk`; removed with this object.
    init(at url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The library's folder, and pocketsphinx as the engine: these tests compare its exact words
    /// ("go forward ten meters") and its speed; whisper has its own tests (`WhisperCommandTests`).
    var environment: [String: String] {
        ["LIVETRANSCRIBER_HOME": url.path, "HOME": url.path, "LIVETRANSCRIBER_ENGINE": "pocketsphinx"]
    }

    /// Runs `livetranscriber arguments…` in-process against this library.
    func run(_ arguments: String...) -> CommandResult { run(arguments) }

    /// Runs `livetranscriber arguments` in-process against this library.
    func run(_ arguments: [String]) -> CommandResult {
        let stdout = BufferOutput(), stderr = BufferOutput()
        let code = fullProgram.main(arguments, context: CommandContext(stdout: stdout, stderr: stderr, environment: environment))
        return CommandResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
    }

    /// Saved recording folders.
    var recordingFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("recordings").path)) ?? []).sorted()
    }

    /// Everything under drafts/.
    var draftFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("drafts").path)) ?? []).sorted()
    }
}

/// The built `livetranscriber` binary next to the test runner, if it was built.
let builtBinary: URL? = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for folder in [runner.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
        let candidate = folder.appendingPathComponent("livetranscriber")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
}()

struct BinaryMissing: Error, CustomStringConvertible {
    var description: String { "the livetranscriber binary is not built; run 'swift build' first" }
}

/// The built binary; throws `BinaryMissing` when it was not built.
func binaryURL() throws -> URL {
    guard let builtBinary else { throw BinaryMissing() }
    return builtBinary
}

/// Reads `output` until it holds `text`, or until it ends; what was read.
func readOutput(until text: String, in output: Pipe) -> String {
    var seen = ""
    while !seen.contains(text) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        seen += String(decoding: chunk, as: UTF8.self)
    }
    return seen
}

/// Starts the built binary with `arguments` against `library`, stdout and stderr piped, and
/// returns at once: for tests that signal a running command.
func startBinary(_ arguments: [String], library: TemporaryLibrary) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
    let process = Process()
    process.executableURL = try binaryURL()
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    return (process, stdout, stderr)
}

/// The sanitizers' settings of this test process (`ASAN_OPTIONS`, `LSAN_OPTIONS`, `TSAN_OPTIONS`:
/// suppressions and report files, `make sanitize`), for a child given an environment of its own.
/// Without them a sanitized binary writes its reports, unsuppressed, to the stderr the test reads:
/// a serve test stopped for good once they filled the pipe. Empty outside a sanitized run.
let sanitizerEnvironment = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }

/// Runs the built binary as a separate process.
func runBinary(_ arguments: [String], environment: [String: String], stdin: Data? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = try binaryURL()
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(exitCode: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

enum Speech {
    static let goForward = "/usr/share/pocketsphinx/test/data/goforward.raw"
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
}
