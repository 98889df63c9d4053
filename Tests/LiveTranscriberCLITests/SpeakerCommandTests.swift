import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLinux
import Testing

/// `speaker`, `show` and `search` on a real library whose transcript has speaker labels.
@Suite("Speaker names")
struct SpeakerCommandTests {
    static let id = "20261129-204112-3f9a"

    /// A recording with two labelled speakers, saved and labelled through the real store.
    func labelledLibrary() throws -> CLIHarness {
        let cli = try CLIHarness()
        let segments = [
            TranscriptSegment(text: "Shall we start?", startSeconds: 0, endSeconds: 2, speaker: "S1"),
            TranscriptSegment(text: "Yes, the budget first.", startSeconds: 3, endSeconds: 5, speaker: "S2"),
            TranscriptSegment(text: "Fine.", startSeconds: 6, endSeconds: 7, speaker: "S1"),
        ]
        try cli.save(id: Self.id, name: "Budget call", seconds: 8)
        try cli.store().replaceTranscript(of: Self.id, with: segments, language: nil, vocabulary: nil,
                                          speakers: [Speaker(id: "S1"), Speaker(id: "S2")], expected: .anything)
        return cli
    }

    @Test func showNamesEachTurnsSpeakerAndListsTheSpeakers() throws {
        let cli = try labelledLibrary()
        defer { cli.remove() }
        let shown = cli.run(["show", "latest"]).stdout
        #expect(shown.hasSuffix("""
            [0:00] Speaker 1: Shall we start?
            [0:03] Speaker 2: Yes, the budget first.
            [0:06] Speaker 1: Fine.

            """))
        #expect(shown.contains("Speakers:  S1, S2\n"))
    }

    @Test func aNamedSpeakerIsShownByNameAndFoundBySearch() throws {
        let cli = try labelledLibrary()
        defer { cli.remove() }
        #expect(cli.run(["speaker", "latest", "s2", "--name", "  Maria Keller "])
            == .init(code: 0, stdout: "Speaker S2 of \(Self.id) is now 'Maria Keller'.\n", stderr: ""))
        #expect(cli.run(["show", "latest"]).stdout.contains("[0:03] Maria Keller: Yes, the budget first.\n"))
        #expect(cli.run(["speaker", "latest"]).stdout == "S1  Speaker 1\nS2  Maria Keller\n")
        let found = cli.run(["search", "keller", "--json"])
        #expect(found.code == 0)
        #expect(found.stdout.contains("\"field\" : \"speaker\""))
        #expect(found.stdout.contains("\"id\" : \"\(Self.id)\""))
        // --no-name gives the number back, and search no longer finds it.
        #expect(cli.run(["speaker", "latest", "S2", "--no-name"]) == .init(code: 0, stdout: "Speaker S2 of \(Self.id) is now 'Speaker 2'.\n", stderr: ""))
        #expect(!cli.run(["search", "keller", "--json"]).stdout.contains(Self.id))
    }

    @Test("bad speaker input: one line, a non-zero exit, nothing changed", arguments: [
        (["speaker", "latest", "S9", "--name", "X"], Int32(1),
         "error: 'Budget call' (20261129-204112-3f9a) has no speaker S9; its speakers are S1 and S2\n"),
        (["speaker", "latest", "S1"], Int32(64), "error: missing --name NAME (or --no-name) for speaker 'S1'\n"),
        (["speaker", "latest", "--name", "X"], Int32(64), "error: --name needs the speaker it names, such as S1\n"),
        (["speaker", "latest", "S1", "--name", "a\u{202E}b"], Int32(1),
         "error: a speaker's name cannot contain control or invisible formatting characters (found U+202E)\n"),
    ])
    func badInput(arguments: [String], code: Int32, stderr: String) throws {
        let cli = try labelledLibrary()
        defer { cli.remove() }
        let before = try cli.store().resolve("latest")
        let result = cli.run(arguments)
        #expect(result.code == code)
        #expect(result.stderr.hasPrefix(stderr))
        #expect(try cli.store().resolve("latest") == before)
    }
}
