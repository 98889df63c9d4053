import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("retranscribe command", .serialized)
struct RetranscribeCommandTests {
    static let verbose = #"{"text":"Hello world. Second.","segments":[{"start":0.2,"end":1.4,"text":" Hello world."},{"start":1.5,"end":2.9,"text":" Second."}]}"#

    @Test("openai: uploads the audio, replaces the transcript, keeps the old one; --restore puts it back")
    func openAIAndRestore() throws {
        let directory = try CLIFixtures.temporaryDirectory()
        let store = CLIFixtures.store(withAudio: try CLIFixtures.wavFile(in: directory))
        let server = try LoopbackHTTPServer(responses: [.error(503, "busy"), .json(200, Self.verbose)])
        defer { server.stop() }
        let id = CLIFixtures.recording().id
        let run = runCommand(RetranscribeCommand.self, [id, "--engine", "openai", "--base-url", server.baseURL.absoluteString],
                             environment: ["OPENAI_API_KEY": CLIFixtures.key]) {
            $0.services.store = { _ in store }
            $0.services.sleep = { _ in }
        }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr == "Uploading the audio of 'Budget meeting' to 127.0.0.1 for whisper-1…\n")
        #expect(run.stdout == """
            Re-transcribed 'Budget meeting' with whisper-1: 2 segments.
            The previous transcript is kept: 'livetranscriber retranscribe \(id) --restore' puts it back.

            """)
        #expect(server.requests.count == 2)
        #expect(try store.transcript(of: id) == [
            TranscriptSegment(text: "Hello world.", startSeconds: 0.2, endSeconds: 1.4),
            TranscriptSegment(text: "Second.", startSeconds: 1.5, endSeconds: 2.9),
        ])
        #expect(store.previousTranscript(of: id) == CLIFixtures.segments)

        let restored = runCommand(RetranscribeCommand.self, [id, "--restore"]) { $0.services.store = { _ in store } }
        #expect(restored.code == 0)
        #expect(restored.stdout == "Restored the previous transcript of 'Budget meeting': 3 segments.\n")
        #expect(try store.transcript(of: id) == CLIFixtures.segments)
    }

    @Test("gpt-4o-transcribe keeps the local times and lays the text over them")
    func gpt4o() throws {
        let directory = try CLIFixtures.temporaryDirectory()
        let store = CLIFixtures.store(withAudio: try CLIFixtures.wavFile(in: directory))
        let server = try LoopbackHTTPServer(responses: [.json(200, #"{"text":"one two three four five six"}"#)])
        defer { server.stop() }
        let id = CLIFixtures.recording().id
        let run = runCommand(RetranscribeCommand.self, [id, "--engine", "openai", "--model", "gpt-4o-transcribe",
                                                        "--base-url", server.baseURL.absoluteString, "--json"],
                             environment: ["OPENAI_API_KEY": CLIFixtures.key]) { $0.services.store = { _ in store } }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try store.transcript(of: id).map(\.text) == ["one two", "three four", "five six"])
        #expect(try store.transcript(of: id).map(\.startSeconds) == [0, 1.1, 2.1])
        let decoded = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(run.stdout.utf8))
        #expect(decoded.segments.count == 3)
        #expect(server.requests.first?.bodyText.contains("name=\"response_format\"\r\n\r\njson\r\n") == true)
    }

    @Test("local: uses the injected recognizer with the recording's audio and language")
    func local() throws {
        let store = CLIFixtures.store(withAudio: URL(fileURLWithPath: "/tmp/a.wav"))
        let fake = FakeLocalTranscriber(result: [TranscriptSegment(text: "local text", startSeconds: 0, endSeconds: 1)])
        let run = runCommand(RetranscribeCommand.self, ["latest", "--no-speakers"]) {
            $0.services.store = { _ in store }
            $0.services.localTranscriber = { _, _, _ in fake }
        }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Re-transcribed 'Budget meeting' with whisper: 1 segment.\n"))  // the default local engine when its model is installed
        #expect(fake.calls.map(\.1) == ["en-US"])
        var asked: [SpeechEngineKind] = []
        let named = runCommand(RetranscribeCommand.self, ["latest", "--engine", "whisper", "--model", "/m.bin", "--no-speakers"]) {
            $0.services.store = { _ in store }
            $0.services.localTranscriber = { kind, model, _ in
                asked.append(kind)
                #expect(model == "/m.bin")
                return fake
            }
        }
        #expect(named.code == 0, "\(named.stderr)")
        #expect(asked == [.whisper])
        #expect(try store.transcript(of: CLIFixtures.recording().id).map(\.text) == ["local text"])
    }

    @Test("a library that cannot be changed is refused in one line before anything is transcribed or uploaded")
    func readOnlyLibrary() throws {
        let store = CLIFixtures.store(withAudio: URL(fileURLWithPath: "/tmp/a.wav"))
        store.writeBlock = .readOnly(path: "/media/usb/library", media: true)
        let fake = FakeLocalTranscriber(result: [TranscriptSegment(text: "local text", startSeconds: 0, endSeconds: 1)])
        let server = try LoopbackHTTPServer(responses: [.json(200, Self.verbose)])
        defer { server.stop() }
        let local = runCommand(RetranscribeCommand.self, ["latest"]) {
            $0.services.store = { _ in store }
            $0.services.localTranscriber = { _, _, _ in fake }
        }
        let cloud = runCommand(RetranscribeCommand.self, ["latest", "--engine", "openai", "--base-url", server.baseURL.absoluteString],
                               environment: ["OPENAI_API_KEY": CLIFixtures.key]) {
            $0.services.store = { _ in store }
            $0.services.localTranscriber = { _, _, _ in fake }
        }
        for run in [local, cloud] {
            #expect(run.code == 1)
            #expect(run.stdout == "")
            #expect(run.stderr == "error: the library at /media/usb/library is read-only (read-only media): "
                    + "list, show, search and export work, but nothing can be changed or recorded\n")
        }
        #expect(fake.calls.isEmpty)
        #expect(server.requests.isEmpty)
        #expect(try store.transcript(of: CLIFixtures.recording().id) == CLIFixtures.segments)
    }

    @Test("--language transcribes in that language and keeps it as the recording's language")
    func language() throws {
        let store = CLIFixtures.store(withAudio: URL(fileURLWithPath: "/tmp/a.wav"))
        let fake = FakeLocalTranscriber(result: [TranscriptSegment(text: "Guten Tag", startSeconds: 0, endSeconds: 1)])
        let run = runCommand(RetranscribeCommand.self, ["latest", "--language", "de", "--json", "--no-speakers"]) {
            $0.services.store = { _ in store }
            $0.services.localTranscriber = { _, _, _ in fake }
        }
        #expect(run.code == 0, "\(run.stderr)")
        #expect(fake.calls.map(\.1) == ["de"])
        #expect(try store.resolve("latest").language == "de")
        #expect(run.stdout.contains("\"language\" : \"de\""))
    }

    @Test("--help names every place the OpenAI key can come from")
    func helpNamesKeyFile() {
        let help = runMain(["retranscribe", "--help"])
        #expect(help.code == 0)
        #expect(help.stdout.contains("OPENAI_API_KEY, else the file OPENAI_API_KEY_FILE names, else the file"))
        #expect(help.stdout.contains("--language"))
        let summarize = runMain(["summarize", "--help"])
        #expect(summarize.stdout.contains("OPENAI_API_KEY, else the file OPENAI_API_KEY_FILE names"))
    }

    @Test("--restore with nothing kept exits 1 and changes nothing")
    func nothingToRestore() throws {
        let store = CLIFixtures.store()
        let run = runCommand(RetranscribeCommand.self, ["latest", "--restore"]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: 'Budget meeting' has no previous transcript to restore.\n")
        #expect(try store.transcript(of: CLIFixtures.recording().id) == CLIFixtures.segments)
    }

    @Test("no key for api.openai.com is an error before any upload")
    func missingKey() throws {
        let home = try CLIFixtures.temporaryDirectory()
        let store = CLIFixtures.store(withAudio: try CLIFixtures.wavFile(in: home))
        let run = runCommand(RetranscribeCommand.self, ["latest", "--engine", "openai"],
                             environment: ["LIVETRANSCRIBER_HOME": home.path]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: no OpenAI API key: set OPENAI_API_KEY, or write the key to \(home.path)/openai-api-key (mode 0600).\n")
    }

    @Test("a key file readable by others is refused")
    func openKeyFile() throws {
        let home = try CLIFixtures.temporaryDirectory()
        let keyFile = home.appendingPathComponent("openai-api-key")
        try CLIFixtures.key.write(to: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let store = CLIFixtures.store(withAudio: try CLIFixtures.wavFile(in: home))
        let run = runCommand(RetranscribeCommand.self, ["latest", "--engine", "openai"],
                             environment: ["LIVETRANSCRIBER_HOME": home.path]) { $0.services.store = { _ in store } }
        #expect(run.code == 1)
        #expect(run.stderr == "error: the OpenAI key file \(keyFile.path) has mode 0644; it must be readable by you only: run 'chmod 600 \(keyFile.path)'.\n")
        #expect(!run.stderr.contains(CLIFixtures.key))
    }

    @Test("usage errors exit 64", arguments: [
        (["x", "--restore", "--engine", "openai"], "error: '--restore' takes no '--engine', '--language', '--model', '--vocabulary', '--speakers' or '--base-url'"),
        (["x", "--restore", "--language", "de"], "error: '--restore' takes no '--engine', '--language', '--model', '--vocabulary', '--speakers' or '--base-url'"),
        (["x", "--language", "en US"], "error: the language must be a BCP 47 tag such as en-US or de, a language's English name such as German, or auto; not 'en US'"),
        (["x", "--engine", "openai", "--model", "whisper-2"], "error: unknown model 'whisper-2'; use whisper-1, gpt-4o-transcribe, gpt-4o-mini-transcribe"),
        (["x", "--model", "whisper-1"], "error: 'whisper-1' is an OpenAI model; use it with '--engine openai'"),
        (["x", "--base-url", "http://127.0.0.1:9"], "error: '--base-url' needs '--engine openai'"),
        (["x", "--engine", "cloud"], "error: unknown engine 'cloud'; use local, whisper, pocketsphinx or openai"),
    ])
    func usage(arguments: [String], message: String) {
        let run = runMain(["retranscribe"] + arguments)
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix(message + "\n"))
    }
}
