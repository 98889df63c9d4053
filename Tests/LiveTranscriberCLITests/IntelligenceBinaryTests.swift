import Foundation
import Testing

/// Runs the built `livetranscriber` binary (next to the test bundle) for exact output and exit codes.
@Suite("livetranscriber binary: export, summarize, retranscribe")
struct IntelligenceBinaryTests {
    func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let library = try TemporaryLibrary()
        let result = try runBinary(arguments, environment: library.environment)
        return (result.exitCode, result.stdout, result.stderr)
    }

    @Test("export --help prints the options and exits 0")
    func help() throws {
        let result = try run(["export", "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("""
            OVERVIEW: Write a recording's transcript as text, Markdown, subtitles or JSON.

            USAGE: livetranscriber export <id> --format txt|md|srt|vtt|json [--transcript current|translated] [--output PATH [--json]] [--line-length N] [--lines N] [--cue-seconds S]

            ARGUMENTS:
              <id>                    A recording id, a unique id prefix, or 'latest'.

            OPTIONS:
              --format <FORMAT>       txt, md, srt, vtt or json.

            """))
    }

    @Test("a bad engine exits 64 with the reason on stderr", arguments: [
        (["retranscribe", "x", "--engine", "cloud"], "error: unknown engine 'cloud'; use local, whisper, pocketsphinx or openai\n"),
        (["summarize", "x", "--engine", "gpt"], "error: unknown engine 'gpt'; use offline or openai\n"),
    ])
    func usage(arguments: [String], firstLine: String) throws {
        let result = try run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(firstLine))
    }
}
