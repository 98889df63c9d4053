import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("summarize command", .serialized)
struct SummarizeCommandTests {
    @Test("offline: stores the summary, adds tags after the user's, prints both")
    func offline() throws {
        let store = CLIFixtures.store()
        let run = runCommand(SummarizeCommand.self, ["latest"]) { $0.services.store = { _ in store } }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Move budget from travel to marketing.\nTags: marketing, budget, small\n")
        let saved = try store.resolve("latest")
        #expect(saved.summary == "Move budget from travel to marketing.")
        #expect(saved.tags == ["work", "marketing", "budget", "small"])
        #expect(store.updates.count == 1)
    }

    @Test("--json prints the updated recording")
    func json() throws {
        let store = CLIFixtures.store()
        let run = runCommand(SummarizeCommand.self, ["latest", "--json"]) { $0.services.store = { _ in store } }
        let decoded = try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(run.stdout.utf8))
        #expect(decoded == (try store.resolve("latest")))
        #expect(run.stdout.contains("\"summary\" : \"Move budget from travel to marketing.\""))
    }

    @Test("openai engine runs the two-pass pipeline on the chat model")
    func model() throws {
        let store = CLIFixtures.store()
        let model = ScriptedLanguageModel(answers: ["- Budget shifts to marketing", "Budget moves from travel to marketing.", "budget, marketing"])
        let run = runCommand(SummarizeCommand.self, ["latest", "--engine", "openai"]) {
            $0.services.store = { _ in store }
            $0.languageModel = { _ in model }
        }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Budget moves from travel to marketing.\nTags: budget, marketing\n")
        #expect(model.requests.count == 3)
        #expect(try store.resolve("latest").tags == ["work", "budget", "marketing"])
    }

    @Test("the tags printed are the ones stored, after the tag rule collapsed their spaces")
    func tagsAsStored() throws {
        let store = CLIFixtures.store()
        let model = ScriptedLanguageModel(answers: ["- Budget shifts", "Budget moves.", "budget, travel   costs"])
        let run = runCommand(SummarizeCommand.self, ["latest", "--engine", "openai"]) {
            $0.services.store = { _ in store }
            $0.languageModel = { _ in model }
        }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try store.resolve("latest").tags == ["work", "budget", "travel costs"])
        #expect(run.stdout == "Budget moves.\nTags: budget, travel costs\n")
    }

    @Test("a refused key over HTTP exits 1, is not retried, and the key is never printed")
    func refusedKey() throws {
        let server = try LoopbackHTTPServer(responses: [.error(401, "Incorrect API key provided: \(CLIFixtures.key).")])
        defer { server.stop() }
        let store = CLIFixtures.store()
        let run = runCommand(SummarizeCommand.self, ["latest", "--engine", "openai", "--base-url", server.baseURL.absoluteString],
                             environment: ["OPENAI_API_KEY": CLIFixtures.key]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: OpenAI refused the API key (401): Incorrect API key provided: [redacted]. Check OPENAI_API_KEY or the key file.\n")
        #expect(!(run.stdout + run.stderr).contains(CLIFixtures.key))
        #expect(server.requests.count == 1)
        #expect(try store.resolve("latest").summary == nil)
    }

    @Test("a recording without transcript text is an error, nothing saved")
    func emptyTranscript() {
        let recording = CLIFixtures.recording()
        let store = InMemoryRecordingStore(recordings: [recording], transcripts: [recording.id: []])
        let run = runCommand(SummarizeCommand.self, ["latest"]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: 'Budget meeting' has no transcript text to summarize.\n")
        #expect(store.updates.isEmpty)
    }

    @Test("usage errors exit 64", arguments: [
        (["x", "--engine", "gpt"], "error: unknown engine 'gpt'; use offline or openai"),
        (["x", "--model", "m"], "error: '--model' and '--base-url' need '--engine openai'"),
        (["x", "--verbose"], "error: unknown option '--verbose'"),
    ])
    func usage(arguments: [String], message: String) {
        let run = runMain(["summarize"] + arguments)
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix(message + "\n"))
    }

    @Test("--help prints OVERVIEW, USAGE, ARGUMENTS, OPTIONS and exits 0")
    func help() {
        let run = runMain(["summarize", "--help"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("OVERVIEW: Write a one-sentence summary and topic tags for a recording.\n\nUSAGE: livetranscriber summarize <id> [--engine offline|openai]"))
        #expect(run.stdout.contains("\nOPTIONS:\n  --engine <ENGINE>"))
    }
}
