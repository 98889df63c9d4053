import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// Runs `livetranscriber` in-process against a library in a temporary directory.
struct CLIHarness {
    let home: URL
    static let utc = TimeZone(identifier: "UTC")!
    static let t0 = Date(timeIntervalSince1970: 1_795_984_872)  // 2026-11-29 20:41:12 UTC

    init() throws {
        home = try TestFolders.make("lt-cli")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: home) }

    struct Result: Equatable {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], terminal: Bool = false, columns: Int? = nil, environment extra: [String: String] = [:]) -> Result {
        let stdout = BufferOutput(isTerminal: terminal)
        let stderr = BufferOutput()
        var environment = ["LIVETRANSCRIBER_HOME": home.path, "TZ": "UTC"].merging(extra) { $1 }
        environment["COLUMNS"] = columns.map(String.init)
        let context = CommandContext(stdout: stdout, stderr: stderr, environment: environment)
        let code = fullProgram.main(arguments, context: context)
        return Result(code: code, stdout: stdout.text, stderr: stderr.text)
    }

    func store() throws -> LibraryStore { try LibraryStore(directory: home, timeZone: Self.utc) }

    /// The folders under drafts/.
    var draftNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("drafts").path)) ?? []).sorted()
    }

    /// Saves a recording as `record` would: draft, a real WAV, save.
    @discardableResult
    func save(id: String, offset: Double = 0, name: String?, tags: [String] = [], seconds: Double = 3,
              segments: [TranscriptSegment] = []) throws -> Recording {
        let store = try store()
        let draft = try store.createDraft(id: id, createdAt: Self.t0.addingTimeInterval(offset), language: "en-US",
                                          audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        try WAVFixture.make(audio: WAVFixture.silence(bytes: Int(seconds * 32_000))).write(to: draft.audioFile)
        return try store.saveDraft(draft, name: name, tags: tags, location: nil, durationSeconds: seconds, segments: segments)
    }

    /// Two recordings: a meeting with a transcript (newer) and a memo.
    func sampleLibrary() throws {
        try save(id: "20261129-090000-aaaa", offset: -42_072, name: "Memo", tags: ["personal"], seconds: 5)
        try save(id: "20261129-204112-3f9a", name: "Café meeting", tags: ["work", "team"], seconds: 130, segments: [
            TranscriptSegment(text: "we discussed the multi-agent planner", startSeconds: 0, endSeconds: 4),
            TranscriptSegment(text: "I don't think AT&T supports Ubuntu 20.04", startSeconds: 62.5, endSeconds: 70),
            TranscriptSegment(text: "今天我们发现50条悬空引用需要修复", startSeconds: 125, endSeconds: 130),
        ])
    }
}

@Suite("Library commands")
struct LibraryCommandsTests {
    @Test("list prints a table, newest first")
    func listTable() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["list"]) == .init(code: 0, stdout: """
            ID                    DATE              DURATION  NAME          TAGS
            20261129-204112-3f9a  2026-11-29 20:41  2:10      Café meeting  work, team
            20261129-090000-aaaa  2026-11-29 09:00  0:05      Memo          personal

            """, stderr: ""))
    }

    @Test("list filters by tag and by date", arguments: [
        (["list", "--tag", "personal"], ["20261129-090000-aaaa"]),
        (["list", "--tag=work"], ["20261129-204112-3f9a"]),
        (["list", "--since", "2026-11-29T12:00:00Z"], ["20261129-204112-3f9a"]),
        (["list", "--since", "2026-11-29"], ["20261129-204112-3f9a", "20261129-090000-aaaa"]),
        (["list", "--since", "2026-11-30"], []),
        (["list", "--limit", "1"], ["20261129-204112-3f9a"]),
        (["list", "--limit", "1", "--offset", "1"], ["20261129-090000-aaaa"]),
        (["list", "--offset", "2"], []),
        (["list", "--tag", "WORK", "--limit", "5"], ["20261129-204112-3f9a"]),
    ])
    func listFilters(arguments: [String], ids: [String]) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let result = cli.run(arguments + ["--json"])
        #expect(result.code == 0)
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(result.stdout.utf8))
        #expect(recordings.map(\.id) == ids)
    }

    @Test("list pages as search does: a full page says where the next starts, a page past the end says there are no more")
    func listPages() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["list", "--limit", "1"]).stdout == """
            ID                    DATE              DURATION  NAME          TAGS
            20261129-204112-3f9a  2026-11-29 20:41  2:10      Café meeting  work, team
            More may follow: --offset 1.

            """)
        #expect(cli.run(["list", "--limit", "1", "--offset", "1"]).stdout.hasSuffix("More may follow: --offset 2.\n"))
        #expect(cli.run(["list", "--limit", "2", "--offset", "1"]).stdout.contains("More may follow") == false)
        #expect(cli.run(["list", "--limit", "5"]).stdout.contains("More may follow") == false)
        #expect(cli.run(["list", "--offset", "2"]).stdout == "No more recordings.\n")
        #expect(cli.run(["list", "--tag", "none"]).stdout == "No recordings match.\n")
    }

    @Test("list --json prints the recording JSON shape")
    func listJSON() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "x1", name: "One", tags: ["a"], seconds: 3)
        #expect(cli.run(["list", "--json"]).stdout == """
            [
              {
                "audio" : {
                  "channels" : 1,
                  "format" : "wav",
                  "sampleRate" : 16000
                },
                "audioDigest" : "sha256:9f0fec4db0cdbb8527017fbe5ffe87d0f8adb8c7ca6413a8590d5a9ad2407482",
                "createdAt" : "2026-11-29T20:41:12Z",
                "duration" : 3,
                "id" : "x1",
                "language" : "en-US",
                "name" : "One",
                "recovered" : false,
                "summary" : null,
                "tags" : [
                  "a"
                ]
              }
            ]

            """)
    }

    @Test("an empty library says how to start, and a bad --since is a usage error")
    func listEmptyAndBadDate() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        #expect(cli.run(["list"]) == .init(code: 0, stdout: "No recordings yet. Make one with 'livetranscriber record'.\n", stderr: ""))
        #expect(cli.run(["list", "--json"]).stdout == "[\n\n]\n")
        let bad = cli.run(["list", "--since", "yesterday"])
        #expect(bad.code == 64)
        #expect(bad.stderr.hasPrefix("error: invalid date 'yesterday' for '--since'; use YYYY-MM-DD, 'YYYY-MM-DD HH:MM' or an ISO 8601 date and time\n"))
    }

    @Test("show prints metadata and the transcript with [m:ss] times; ID may be latest or a prefix",
          arguments: ["latest", "20261129-204", "20261129-204112-3f9a"])
    func show(reference: String) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["show", reference]) == .init(code: 0, stdout: """
            Café meeting
            ID:        20261129-204112-3f9a
            Created:   2026-11-29 20:41
            Duration:  2:10
            Language:  en-US
            Tags:      work, team
            Audio:     wav, 16000 Hz, 1 channel

            [0:00] we discussed the multi-agent planner
            [1:02] I don't think AT&T supports Ubuntu 20.04
            [2:05] 今天我们发现50条悬空引用需要修复

            """, stderr: ""))
    }

    @Test("show lists the recording's notes under Notes:, one a line; --json gives them as notes")
    func showNotes() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let notes = [InventedPhrases.note("Thank you for watching.", startSeconds: 64), InventedPhrases.note("Bye bye.", startSeconds: 128.5)]
        _ = try cli.store().modify("20261129-204112-3f9a") { $0.notes = notes }
        let shown = cli.run(["show", "latest"]).stdout
        #expect(shown.contains("""
            Audio:     wav, 16000 Hz, 1 channel
            Notes:     Dropped “Thank you for watching.” at 1:04: a phrase Whisper is known to invent, decoded with little confidence.
                       Dropped “Bye bye.” at 2:08: a phrase Whisper is known to invent, decoded with little confidence.

            """), "\(shown)")
        let decoded = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(cli.run(["show", "latest", "--json"]).stdout.utf8))
        #expect(decoded.recording.notes == notes)
    }

    @Test("show --json prints the recording with its segments")
    func showJSON() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let result = cli.run(["show", "latest", "--json"])
        #expect(result.code == 0)
        let decoded = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(decoded.recording.name == "Café meeting")
        #expect(decoded.segments.map(\.startSeconds) == [0, 62.5, 125])
        #expect(result.stdout.contains("\"segments\" : ["))
    }

    @Test("a transcript saved with float noise (trial 5: 4.5040000000000004) prints whole milliseconds in export --format json and show --json")
    func noisyTimesPrintMilliseconds() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-204112-0870", name: "Dashwood", seconds: 6, segments: [TranscriptSegment(text: "x", startSeconds: 0, endSeconds: 1)])
        let stored = #"[{"end":4.5040000000000004,"start":0.064,"text":"And Mr. John Dashwood","words":[{"end":4.5040000000000004,"start":3.7680000000000002,"word":"Dashwood"}]}]"#
        try Data(stored.utf8).write(to: cli.home.appendingPathComponent("recordings/20261129-204112-0870/transcript.json"))
        for arguments in [["export", "latest", "--format", "json"], ["show", "latest", "--json"]] {
            let result = cli.run(arguments)
            #expect(result.code == 0)
            let times = result.stdout.components(separatedBy: "\n").filter { $0.contains("\"end\"") || $0.contains("\"start\"") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(times == ["\"end\" : 4.504,", "\"start\" : 0.064,", "\"end\" : 4.504,", "\"start\" : 3.768,"], "\(arguments)")
        }
    }

    @Test("usage errors exit 64, unknown recordings exit 1, each with one clear line", arguments: [
        (["show"], 64, "error: missing ID\nusage: livetranscriber show <id> [--json]\nSee 'livetranscriber show --help'.\n"),
        (["show", "a", "b"], 64, "error: unexpected argument 'b'\nusage: livetranscriber show <id> [--json]\nSee 'livetranscriber show --help'.\n"),
        (["show", "nope"], 1, "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n"),
        (["show", "20261129"], 1, "error: '20261129' matches 2 recordings (20261129-090000-aaaa, 20261129-204112-3f9a); give more of the id.\n"),
        (["rename", "nope", "X"], 1, "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n"),
        (["rename"], 64, "error: missing ID and NAME\nusage: livetranscriber rename <id> <name> [--json]\nSee 'livetranscriber rename --help'.\n"),
        (["rename", "latest"], 64, "error: missing NAME\nusage: livetranscriber rename <id> <name> [--json]\nSee 'livetranscriber rename --help'.\n"),
        (["rename", "latest", "  "], 64, "error: NAME cannot be empty\nusage: livetranscriber rename <id> <name> [--json]\nSee 'livetranscriber rename --help'.\n"),
        (["tag"], 64, "error: missing ID\nusage: livetranscriber tag <id> [--add <tags>]... [--remove <tags>]... [--json]\nSee 'livetranscriber tag --help'.\n"),
        (["delete"], 64, "error: missing ID\nusage: livetranscriber delete <id> [--purge] [--json]\nSee 'livetranscriber delete --help'.\n"),
        (["delete", "nope"], 1, "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n"),
        (["search"], 64, "error: missing <query>\nusage: livetranscriber search <query> [--limit <n>] [--offset <n>] [--json]\nSee 'livetranscriber search --help'.\n"),
        (["search", "x", "--limit", "0"], 64, "error: invalid value '0' for '--limit'; use a positive number\nusage: livetranscriber search <query> [--limit <n>] [--offset <n>] [--json]\nSee 'livetranscriber search --help'.\n"),
        (["search", "x", "--offset", "-1"], 64, "error: invalid value '-1' for '--offset'; use 0 or a positive number\nusage: livetranscriber search <query> [--limit <n>] [--offset <n>] [--json]\nSee 'livetranscriber search --help'.\n"),
        (["list", "--limit", "x"], 64, "error: invalid value 'x' for '--limit'; use a positive number\nusage: livetranscriber list [--tag <tag>] [--since <date>] [--limit <n>] [--offset <n>] [--json]\nSee 'livetranscriber list --help'.\n"),
        (["list", "--bogus"], 64, "error: unknown option '--bogus'\nusage: livetranscriber list [--tag <tag>] [--since <date>] [--limit <n>] [--offset <n>] [--json]\nSee 'livetranscriber list --help'.\n"),
    ])
    func errors(arguments: [String], code: Int32, stderr: String) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(arguments) == .init(code: code, stdout: "", stderr: stderr))
    }

    @Test("rename and tag change the recording and print it")
    func renameAndTag() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["rename", "latest", "Planning sync"]) == .init(code: 0, stdout: "Renamed 20261129-204112-3f9a to 'Planning sync'.\n", stderr: ""))
        #expect(cli.run(["tag", "20261129-2", "--add", "q4", "--remove", "team", "--add", "work"])
            == .init(code: 0, stdout: "Tags of 20261129-204112-3f9a: work, q4\n", stderr: ""))
        #expect(cli.run(["tag", "20261129-2"]).stdout == "Tags of 20261129-204112-3f9a: work, q4\n")
        #expect(cli.run(["tag", "20261129-0", "--remove", "personal"]).stdout == "Tags of 20261129-090000-aaaa: (none)\n")
        let recording = try cli.store().resolve("latest")
        #expect(recording.name == "Planning sync")
        #expect(recording.tags == ["work", "q4"])
        let json = cli.run(["rename", "latest", "Again", "--json"])
        #expect(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(json.stdout.utf8)).name == "Again")
    }

    @Test("delete moves to the trash; --purge removes for good")
    func delete() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["delete", "20261129-0"]) == .init(code: 0, stdout: "Moved 20261129-090000-aaaa 'Memo' to the trash.\n", stderr: ""))
        #expect(cli.run(["delete", "20261129-204112-3f9a", "--purge"]) == .init(code: 0, stdout: "Deleted 20261129-204112-3f9a 'Café meeting' for good.\n", stderr: ""))
        #expect(cli.run(["delete", "latest"]).code == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("trash").path) == ["20261129-090000-aaaa"])
        #expect(cli.run(["list", "--json"]).stdout == "[\n\n]\n")
    }

    @Test("search prints id, name, the segment's time and a marked snippet", arguments: [
        ("ubuntu", "20261129-204112-3f9a  Café meeting  [1:02]  I don't think AT&T supports [Ubuntu] 20.04\n"),
        ("悬空", "20261129-204112-3f9a  Café meeting  [2:05]  今天我们发现50条[悬空]引用需要修复\n"),
        ("CAFE", "20261129-204112-3f9a  Café meeting  (name)  [Café] meeting\n"),
        ("personal", "20261129-090000-aaaa  Memo  (tag)  [personal]\n"),
        ("*", "No matches for '*'.\n"),
        ("\"", "No matches for '\"'.\n"),
    ])
    func search(query: String, output: String) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["search", query]) == .init(code: 0, stdout: output, stderr: ""))
    }

    @Test("search of more than 32 words searches the first 32 and says so on stderr")
    func searchTooManyWords() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let filler = (0..<32).map { "zq\($0)" }.joined(separator: " ")
        #expect(cli.run(["search", filler, "cafe"]) == .init(
            code: 0, stdout: "No matches for '\(TerminalText.prefix(filler + " cafe", width: 60))'.\n",
            stderr: "note: only the first 32 of the 33 words are searched.\n"))
        #expect(cli.run(["search", filler]).stderr == "")
    }

    @Test("search groups places under their recording, says how many more segments match, and pages")
    func searchGroups() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-100000-bbbb", offset: -38_000, name: "Standup", seconds: 60,
                     segments: (0..<5).map { TranscriptSegment(text: "release \($0) is out", startSeconds: Double($0) * 10, endSeconds: Double($0) * 10 + 5) })
        try cli.save(id: "20261129-110000-cccc", offset: -34_000, name: "Release plan", seconds: 5,
                     segments: [TranscriptSegment(text: "nothing here", startSeconds: 0, endSeconds: 2)])
        #expect(cli.run(["search", "release"]) == .init(code: 0, stdout: """
            20261129-110000-cccc  Release plan  (name)  [Release] plan
            20261129-100000-bbbb  Standup       [0:00]  [release] 0 is out
                                                [0:10]  [release] 1 is out
                                                [0:20]  [release] 2 is out
                                                        … 2 more matching segments

            """, stderr: ""))
        #expect(cli.run(["search", "release", "--limit", "1"]).stdout == """
            20261129-110000-cccc  Release plan  (name)  [Release] plan
            More may follow: --offset 1.

            """)
        #expect(cli.run(["search", "release", "--limit", "1", "--offset", "1"]).stdout.hasPrefix("20261129-100000-bbbb  Standup"))
        #expect(cli.run(["search", "release", "--offset", "2"]).stdout == "No more matches for 'release'.\n")
    }

    @Test("search on a terminal marks matches in bold; --json prints recordings with their matches")
    func searchTerminalAndJSON() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        #expect(cli.run(["search", "planner"], terminal: true).stdout
            == "20261129-204112-3f9a  Café meeting  [0:00]  we discussed the multi-agent \u{1B}[1mplanner\u{1B}[0m\n")
        let json = cli.run(["search", "multi-agent", "--json"])
        #expect(json.code == 0)
        let results = try JSONDecoder.liveTranscriber.decode([SearchResult].self, from: Data(json.stdout.utf8))
        #expect(results.map(\.recording.id) == ["20261129-204112-3f9a"])
        #expect(results.first?.matchingSegments == 1)
        #expect(results.first?.hits.first?.snippet() == "we discussed the [multi-agent] planner")
        #expect(json.stdout.contains("\"matches\" : ["))
        #expect(json.stdout.contains("\"time\" : \"0:00\""))
    }

    @Test("every library command first recovers a draft left by a crash, noting it on stderr")
    func autoRecovery() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        do {
            let store = try cli.store()
            let draft = try store.createDraft(id: "20261129-204112-dead", createdAt: CLIHarness.t0, language: "en-US",
                                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 96_000), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
            try store.appendToJournal(TranscriptSegment(text: "saved by the journal", startSeconds: 0.5, endSeconds: 2), draft: draft)
        }
        let result = cli.run(["search", "journal"])
        #expect(result == .init(
            code: 0,
            stdout: "20261129-204112-dead  Recording 2026-11-29 20:41  [0:00]  saved by the [journal]\n",
            stderr: "note: recovered an interrupted recording: 20261129-204112-dead 'Recording 2026-11-29 20:41' (0:03).\n"
        ))
        #expect(cli.run(["show", "latest"]).stdout.contains("Recovered:  yes, rebuilt from a recording interrupted by a crash\n"))
        #expect(cli.run(["recover"]) == .init(code: 0, stdout: "No interrupted recordings to recover.\n", stderr: ""))
    }

    @Test("a recovered recording with no transcript gets a hint to retranscribe it, in the note and in recover")
    func recoveredWithoutTranscript() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        func crash(_ id: String) throws {
            let store = try cli.store()
            let draft = try store.createDraft(id: id, createdAt: CLIHarness.t0, language: "en-US",
                                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1), name: "crashme")
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 96_000), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
        }
        try crash("20261129-204112-dead")
        #expect(cli.run(["list"]).stderr
            == "note: recovered an interrupted recording: 20261129-204112-dead 'crashme' (0:03); it has no transcript yet; "
            + "run 'livetranscriber retranscribe 20261129-204112-dead'.\n")
        try crash("r2")
        #expect(cli.run(["recover"]) == .init(
            code: 0, stdout: "Recovered r2 'crashme' (0:03, 0 segments); it has no transcript yet; run 'livetranscriber retranscribe r2'.\n", stderr: ""))
    }

    @Test("a recovered transcript that stops long before the audio says how much has none and to retranscribe, in the note and in recover")
    func recoveredTranscriptCutShort() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        func crash(_ id: String) throws {
            let store = try cli.store()
            let draft = try store.createDraft(id: id, createdAt: CLIHarness.t0, language: "en-US",
                                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1), name: "fast")
            // 60 s of audio (a recorder at --speed max killed while its recognizer was at 0:05).
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 1_920_000), riffSize: 0, dataSize: 0).write(to: draft.audioFile)
            try store.appendToJournal(TranscriptSegment(text: "only the start", startSeconds: 0.5, endSeconds: 5.2), draft: draft)
        }
        try crash("20261129-204112-fast")
        #expect(cli.run(["list"]).stderr
            == "note: recovered an interrupted recording: 20261129-204112-fast 'fast' (1:00); the last 0:54 of audio (from 0:05) has no "
            + "transcript: the recording stopped before it was transcribed; run 'livetranscriber retranscribe 20261129-204112-fast' "
            + "to transcribe it all.\n")
        try crash("r3")
        #expect(cli.run(["recover"]).stdout == "Recovered r3 'fast' (1:00, 1 segment); the last 0:54 of audio (from 0:05) has no "
            + "transcript: the recording stopped before it was transcribed; run 'livetranscriber retranscribe r3' to transcribe it all.\n")
    }

    @Test("recover reports each recovered recording")
    func recoverCommand() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        do {
            let store = try cli.store()
            let draft = try store.createDraft(id: "r1", createdAt: CLIHarness.t0, language: "en-US",
                                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1), name: "Lecture")
            try WAVFixture.make(audio: WAVFixture.pcm(bytes: 64_000), dataSize: 0xFFFF_FFFF).write(to: draft.audioFile)
            try store.appendToJournal(TranscriptSegment(text: "one", startSeconds: 0, endSeconds: 1), draft: draft)
            try store.appendToJournal(TranscriptSegment(text: "two", startSeconds: 1, endSeconds: 2), draft: draft)
        }
        #expect(cli.run(["recover"]) == .init(code: 0, stdout: "Recovered r1 'Lecture' (0:02, 2 segments).\n", stderr: ""))
    }

    @Test("read commands on a library folder that does not exist say so and create nothing")
    func missingLibraryIsNotCreated() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let missing = cli.home.appendingPathComponent("not yet/library")
        let environment = ["LIVETRANSCRIBER_HOME": missing.path, "TZ": "UTC"]
        let noLibrary = "error: there are no recordings yet. Make one with 'livetranscriber record'.\n"
        let runs: [([String], CommandRun)] = [
            (["list"], CommandRun(code: 0, stdout: "No recordings yet. Make one with 'livetranscriber record'.\n", stderr: "")),
            (["list", "--json"], CommandRun(code: 0, stdout: "[\n\n]\n", stderr: "")),
            (["search", "budget"], CommandRun(code: 0, stdout: "No matches for 'budget'.\n", stderr: "")),
            (["show", "latest"], CommandRun(code: 1, stdout: "", stderr: noLibrary)),
            (["export", "latest", "--format", "txt"], CommandRun(code: 1, stdout: "", stderr: noLibrary)),
            (["rename", "latest", "New"], CommandRun(code: 1, stdout: "", stderr: noLibrary)),
            (["tag", "latest", "--add", "x"], CommandRun(code: 1, stdout: "", stderr: noLibrary)),
            (["delete", "20261129"], CommandRun(code: 1, stdout: "",
                                               stderr: "error: no recording matches '20261129'. Run 'livetranscriber list' to see the ids.\n")),
            (["recover"], CommandRun(code: 0, stdout: "No interrupted recordings to recover.\n", stderr: "")),
            (["reindex"], CommandRun(code: 0, stdout: "Indexed 0 recordings.\n", stderr: "")),
        ]
        for (arguments, expected) in runs {
            let result = runMain(arguments, environment: environment)
            #expect(result == expected, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
    }

    @Test("reindex names each unreadable folder on one line and indexes the rest")
    func reindexUnreadable() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let bad = cli.home.appendingPathComponent("recordings/bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data("{".utf8).write(to: bad.appendingPathComponent("metadata.json"))
        let file = bad.appendingPathComponent("metadata.json").path
        #expect(cli.run(["reindex"]) == .init(code: 0, stdout: "Indexed 2 recordings.\n",
                                              stderr: "warning: skipped recordings/bad: the library file \(file) is unreadable: The given data was not valid JSON.\n"))
        #expect(cli.run(["reindex", "--json"]).stdout
            == "{\n  \"indexed\" : 2,\n  \"unreadable\" : {\n    \"bad\" : \"the library file \(file) is unreadable: The given data was not valid JSON.\"\n  }\n}\n")
    }

    @Test("a recording whose metadata.json is damaged is named by list and search, and show, tag and delete say why (exit 1)")
    func damagedMetadataIsNamed() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let id = "20261129-090000-aaaa"
        let file = cli.home.appendingPathComponent("recordings/\(id)/metadata.json").path
        try Data("{garbage\n".utf8).write(to: URL(fileURLWithPath: file))
        let reindexed = cli.run(["reindex"])
        #expect(reindexed.code == 0)
        #expect(reindexed.stderr.hasPrefix("warning: skipped recordings/\(id): the library file \(file) is unreadable: "))
        let note = "note: 1 recording could not be read and is left out: \(id). 'livetranscriber show <id>' says why; once the file is fixed, run 'livetranscriber reindex'.\n"
        let listed = cli.run(["list"])
        #expect(listed.code == 0)
        #expect(listed.stdout.hasPrefix("ID  "))
        #expect(!listed.stdout.contains(id))
        #expect(listed.stderr == note)
        #expect(cli.run(["list", "--json"]).stderr == note)
        #expect(cli.run(["search", "memo"]) == .init(code: 0, stdout: "No matches for 'memo'.\n", stderr: note))
        let reason = String(reindexed.stderr.dropFirst("warning: skipped recordings/\(id): the library file \(file) is unreadable: ".count).dropLast(2))
        let error = "error: the library file \(file) is unreadable: \(reason). Recording \(id) exists, but list, search and other commands "
            + "leave it out until the file is fixed or restored; then run 'livetranscriber reindex'\n"
        for arguments in [["show", id], ["show", "20261129-09"], ["tag", id, "--add", "x"], ["delete", "20261129-09"]] {
            #expect(cli.run(arguments) == .init(code: 1, stdout: "", stderr: error), "\(arguments)")
        }
        #expect(cli.run(["show", "20261129-1"]).stderr == "error: no recording matches '20261129-1'. Run 'livetranscriber list' to see the ids.\n")
        // When no recording can be read, list does not say there are none.
        try FileManager.default.removeItem(at: cli.home.appendingPathComponent("recordings/20261129-204112-3f9a"))
        _ = cli.run(["reindex"])
        #expect(cli.run(["list"]) == .init(code: 0, stdout: "No recordings match.\n", stderr: note))
    }

    @Test("delete given the exact id of an unreadable folder trashes it (or purges it) and list stops naming it")
    func deleteUnreadableFolder() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let memo = "20261129-090000-aaaa", meeting = "20261129-204112-3f9a"
        let recordings = cli.home.appendingPathComponent("recordings")
        try Data("{garbage\n".utf8).write(to: recordings.appendingPathComponent("\(memo)/metadata.json"))
        try Data("[not a transcript".utf8).write(to: recordings.appendingPathComponent("\(meeting)/transcript.json"))
        #expect(cli.run(["reindex"]).code == 0)
        #expect(cli.run(["list"]).stderr.hasPrefix("note: 2 recordings could not be read and are left out: \(memo), \(meeting). "))
        #expect(cli.run(["delete", memo]) == .init(code: 0, stdout: "Moved \(memo) (unreadable) to the trash.\n", stderr: ""))
        #expect(!FileManager.default.fileExists(atPath: recordings.appendingPathComponent(memo).path))
        let trashed = cli.home.appendingPathComponent("trash/\(memo)/metadata.json")
        #expect(try Data(contentsOf: trashed) == Data("{garbage\n".utf8))
        #expect(cli.run(["list"]).stderr == "note: 1 recording could not be read and is left out: \(meeting). "
            + "'livetranscriber show <id>' says why; once the file is fixed, run 'livetranscriber reindex'.\n")
        #expect(cli.run(["delete", meeting, "--purge", "--json"]) == .init(
            code: 0, stdout: "{\n  \"id\" : \"\(meeting)\",\n  \"purged\" : true\n}\n", stderr: ""))
        #expect(!FileManager.default.fileExists(atPath: recordings.appendingPathComponent(meeting).path))
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("trash/\(meeting)").path))
        #expect(cli.run(["list"]) == .init(code: 0, stdout: "No recordings yet. Make one with 'livetranscriber record'.\n", stderr: ""))
        let store = try cli.store()
        #expect(try store.unreadableFolders().isEmpty)
        #expect(try store.reindex().unreadable.isEmpty)
    }

    @Test("on a terminal, list and search cut long names (display width, with …) to COLUMNS; a pipe gets whole rows")
    func tablesFitTheTerminal() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let name = String(repeating: "Quarterly budget review 会议 ", count: 6).trimmingCharacters(in: .whitespaces)
        try cli.save(id: "20261129-204112-3f9a", name: name, tags: ["work"], segments: [
            TranscriptSegment(text: "the budget for marketing", startSeconds: 0, endSeconds: 2),
        ])
        let list = cli.run(["list"], terminal: true, columns: 70)
        #expect(list.stdout == "ID                    DATE              DURATION  NAME            TAGS\n"
            + "20261129-204112-3f9a  2026-11-29 20:41  0:03      Quarterly bud…  work\n")
        let wide = cli.run(["list"], terminal: true, columns: 100)
        #expect(wide.stdout.split(separator: "\n").map { CharacterWidth.columns(of: $0) } == [100, 100])
        #expect(wide.stdout.contains("  0:03      Quarterly budget review 会议 Quarterly budg…  work\n"), "\(wide.stdout)")
        let piped = cli.run(["list"], columns: 70)
        #expect(piped.stdout.contains(name + "  work"))
        let search = cli.run(["search", "marketing"], terminal: true, columns: 60)
        #expect(search.stdout == "20261129-204112-3f9a  Quarterly bud…  [0:00]  …for \u{1B}[1mmarketing\u{1B}[0m\n", "\(search.stdout)")
        #expect(Self.widths(search.stdout).allSatisfy { $0 <= 60 })
        #expect(cli.run(["search", "marketing"], columns: 60).stdout.contains(name))
    }

    /// The display width of each line of `text`, color codes left out.
    static func widths(_ text: String) -> [Int] {
        text.split(separator: "\n").map {
            CharacterWidth.columns(of: $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression))
        }
    }

    @Test("on a terminal a search snippet is cut around its first match: a match late in a long segment stays in view")
    func snippetCutAroundTheMatch() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "20261129-204112-3f9a", name: "Planning", segments: [TranscriptSegment(
            text: "we talked about the schedule for the next quarter and the hiring plans and many other things before we finally agreed on the budget for marketing",
            startSeconds: 0, endSeconds: 9)])
        let plain = cli.run(["search", "budget"], terminal: true, columns: 60)
        #expect(plain.stdout == "20261129-204112-3f9a  Planning  [0:00]  …n the \u{1B}[1mbudget\u{1B}[0m for m…\n")
        let noColor = cli.run(["search", "budget"], terminal: true, columns: 50, environment: ["NO_COLOR": "1"])
        #expect(noColor.stdout == "20261129-204112-3f9a  Planning  [0:00]  …[budget]…\n")
        #expect(Self.widths(plain.stdout + noColor.stdout).allSatisfy { $0 <= 60 })
    }

    @Test("at 40 columns every line of list and search fits: list leaves out the date, tags and duration, search the name")
    func narrowTerminal() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let list = cli.run(["list"], terminal: true, columns: 40)
        #expect(list.stdout == """
            ID                    NAME
            20261129-204112-3f9a  Café meeting
            20261129-090000-aaaa  Memo

            """)
        let search = cli.run(["search", "planner"], terminal: true, columns: 40, environment: ["NO_COLOR": "1"])
        #expect(search.stdout == "20261129-204112-3f9a  [0:00]  …[planner]\n")
        let names = cli.run(["search", "memo"], terminal: true, columns: 40, environment: ["NO_COLOR": "1"])
        #expect(names.stdout == "20261129-090000-aaaa  (name)  [Memo]\n")
        for columns in [40, 30, 20, 10] {
            for arguments in [["list"], ["search", "planner"], ["search", "we"]] {
                let result = cli.run(arguments, terminal: true, columns: columns)
                #expect(Self.widths(result.stdout).allSatisfy { $0 <= columns }, "\(arguments) at \(columns): \(result.stdout)")
            }
        }
    }

    @Test("reindex rebuilds from folders and reports the count")
    func reindex() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        try FileManager.default.removeItem(at: cli.home.appendingPathComponent("library.sqlite"))
        #expect(cli.run(["reindex"]) == .init(code: 0, stdout: "Indexed 2 recordings.\n", stderr: ""))
        #expect(cli.run(["reindex", "--json"]).stdout == "{\n  \"indexed\" : 2,\n  \"unreadable\" : {\n\n  }\n}\n")
        #expect(cli.run(["search", "ubuntu", "--json"]).stdout.contains("\"start\" : 62.5"))
    }

    @Test("every library command has --help", arguments: ["list", "show", "search", "rename", "tag", "delete", "recover", "reindex"])
    func help(command: String) throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let result = cli.run([command, "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nUSAGE: livetranscriber \(command)"))
        #expect(result.stdout.contains("  -h, --help              Show help information.\n"))
    }
}

@Suite("Library command tables")
struct LibraryTableTests {
    @Test("columns line up in terminal cells: CJK characters and emoji take two")
    func wideCharacters() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "b-zh", offset: 60, name: "周会纪要", tags: ["团队"])
        try cli.save(id: "a-en", name: "Standup 🎉", tags: ["work"])
        #expect(cli.run(["list"]).stdout == """
            ID    DATE              DURATION  NAME        TAGS
            b-zh  2026-11-29 20:42  0:03      周会纪要    团队
            a-en  2026-11-29 20:41  0:03      Standup 🎉  work

            """)
    }

    @Test("a row whose last cells are empty (no tags) ends without padding")
    func noTrailingSpaces() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "b-tagged", offset: 60, name: "Weekly sync", tags: ["work"])
        try cli.save(id: "a-plain", name: "Call", tags: [])
        #expect(cli.run(["list"]).stdout == "ID        DATE              DURATION  NAME         TAGS\n"
            + "b-tagged  2026-11-29 20:42  0:03      Weekly sync  work\n"
            + "a-plain   2026-11-29 20:41  0:03      Call\n")
    }

    @Test("stray files in drafts/ and recordings/ are ignored, not reported")
    func strayFiles() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.save(id: "a", name: "A")
        try Data("x".utf8).write(to: cli.home.appendingPathComponent("drafts/notes.txt"))
        try Data("x".utf8).write(to: cli.home.appendingPathComponent("recordings/README"))
        #expect(cli.run(["list", "--json"]).stderr == "")
        #expect(cli.run(["reindex"]) == .init(code: 0, stdout: "Indexed 1 recording.\n", stderr: ""))
    }
}
