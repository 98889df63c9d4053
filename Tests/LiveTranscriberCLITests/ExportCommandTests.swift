import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("export command")
struct ExportCommandTests {
    @Test("prints SRT on stdout for an id prefix; the last cue ends with the 3 s of audio")
    func srt() {
        let store = CLIFixtures.store()
        let run = runCommand(ExportCommand.self, ["2023", "--format", "srt"]) { $0.services.store = { _ in store } }
        #expect(run.code == 0)
        #expect(run.stdout == """
            1
            00:00:00,000 --> 00:00:01,000
            The marketing budget is too small.

            2
            00:00:01,100 --> 00:00:02,100
            Move budget from travel to marketing.

            3
            00:00:02,100 --> 00:00:03,000
            Marketing starts in March.

            """)
    }

    @Test("--output writes the file and says so on stderr")
    func output() throws {
        let store = CLIFixtures.store()
        let path = try CLIFixtures.temporaryDirectory().appendingPathComponent("t.vtt").path
        let run = runCommand(ExportCommand.self, ["latest", "--format=vtt", "--output", path]) { $0.services.store = { _ in store } }
        #expect(run.code == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "Wrote \(path).\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\n"))
    }

    @Test("bad or missing format is a usage error (exit 64)", arguments: [
        (["x", "--format", "docx"], "error: unknown format 'docx'; use txt, md, srt, vtt or json"),
        (["x"], "error: missing '--format' (txt, md, srt, vtt or json)"),
        (["--format", "srt"], "error: missing <id>"),
    ])
    func usage(arguments: [String], message: String) {
        let run = runMain(["export"] + arguments)
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix(message + "\nusage: livetranscriber export <id> --format txt|md|srt|vtt|json [--transcript current|translated] [--output PATH [--json]] [--line-length N] [--lines N] [--cue-seconds S]\n"))
    }

    @Test("--line-length and --lines split cues at word boundaries, timed by characters when words have no times")
    func subtitleLimits() {
        let store = CLIFixtures.store()
        let run = runCommand(ExportCommand.self, ["latest", "--format", "srt", "--line-length", "20", "--lines=1"]) {
            $0.services.store = { _ in store }
        }
        #expect(run.code == 0)
        #expect(run.stdout == """
            1
            00:00:00,000 --> 00:00:00,618
            The marketing budget

            2
            00:00:00,618 --> 00:00:01,100
            is too small.

            3
            00:00:01,100 --> 00:00:01,514
            Move budget from

            4
            00:00:01,514 --> 00:00:02,100
            travel to marketing.

            5
            00:00:02,100 --> 00:00:02,792
            Marketing starts in

            6
            00:00:02,792 --> 00:00:03,000
            March.

            """)
    }

    @Test("subtitle limits out of range or with a format without cues are usage errors (exit 64)", arguments: [
        (["x", "--format", "txt", "--lines", "2"], "error: --lines applies to subtitles only (--format srt or vtt), not txt"),
        (["x", "--format", "srt", "--line-length", "0"], "error: --line-length takes a whole number from 1 to 1000, not '0'"),
        (["x", "--format", "vtt", "--cue-seconds", "nan"], "error: --cue-seconds takes seconds from 0.5 to 3600, such as 7 or 5.5, not 'nan'"),
    ])
    func subtitleLimitErrors(arguments: [String], message: String) {
        let run = runMain(["export"] + arguments)
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix(message + "\n"))
    }

    @Test("the Markdown date is in the zone list and show use (TZ)")
    func markdownDateZone() {
        let store = CLIFixtures.store()
        let run = runCommand(ExportCommand.self, ["latest", "--format", "md"], environment: ["TZ": "Asia/Kolkata"]) {
            $0.services.store = { _ in store }
        }
        #expect(run.code == 0)
        #expect(run.stdout.contains("\n- Date: 2023-11-15T03:43:20+05:30\n"))
    }

    @Test("an unknown id exits 1 with the library's sentence")
    func notFound() {
        let store = CLIFixtures.store()
        let run = runCommand(ExportCommand.self, ["nope", "--format", "txt"]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n")
    }
}
