import Foundation
import Testing

/// Runs the built `livetranscriber` binary (next to the test bundle) for exact output and exit codes.
@Suite("livetranscriber binary: export, summarize, retranscribe")
struct IntelligenceBinaryTests {
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("livetranscriber")
    }

    func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the binary first: swift build")
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ["LIVETRANSCRIBER_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("lt-e2e-\(UUID().uuidString)").path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test("export --help prints the options and exits 0")
    func help() throws {
        let result = try run(["export", "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("""
            OVERVIEW: Write a recording's transcript as text, Markdown, subtitles or JSON.

            USAGE: livetranscriber export <id> --format txt|md|srt|vtt|json [--output PATH]

            ARGUMENTS:
              <id>                    A recording id, a unique id prefix, or 'latest'.

            OPTIONS:
              --format <FORMAT>       txt, md, srt, vtt or json.

            """))
    }

    @Test("a bad engine exits 64 with the reason on stderr", arguments: [
        (["retranscribe", "x", "--engine", "cloud"], "error: unknown engine 'cloud'; use local or openai\n"),
        (["summarize", "x", "--engine", "gpt"], "error: unknown engine 'gpt'; use offline or openai\n"),
    ])
    func usage(arguments: [String], firstLine: String) throws {
        let result = try run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(firstLine))
    }
}
