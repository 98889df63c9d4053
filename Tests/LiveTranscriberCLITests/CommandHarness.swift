import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberServe
import LiveTranscriberTestSupport
import Testing

/// The full program as `livetranscriber-full` builds it (Sources/livetranscriber-full): every
/// command, `serve` registered from its own module.
let fullProgram = LiveTranscriberCommandLine(serve: ServeCommand.entry)

/// Runs one command in-process with replaced services, through the entry point's own parsing
/// and error handling (`LiveTranscriberCommandLine.parse` and `execute`).
struct CommandRun: Equatable {
    var code: Int32
    var stdout: String
    var stderr: String
}

func runCommand<Command: CLICommand>(
    _ type: Command.Type, _ arguments: [String], environment: [String: String] = [:],
    configure: (inout Command) -> Void = { _ in }
) -> CommandRun {
    let out = BufferOutput(), err = BufferOutput()
    let context = CommandContext(stdout: out, stderr: err, environment: environment)
    let code: Int32
    // Every option the command reads must be one its spec declares (`ParsedArguments.undeclaredReads`).
    let make = { (parsed: ParsedArguments) throws -> Command in
        defer { #expect(parsed.undeclaredReads == [], "\(Command.spec.name) read options its spec does not declare") }
        return try Command(arguments: parsed)
    }
    switch LiveTranscriberCommandLine.parse(arguments, spec: Command.spec, context: context, make: make) {
    case .exit(let exit):
        code = exit
    case .command(var command):
        configure(&command)
        code = LiveTranscriberCommandLine.execute(command, context: context)
    }
    return CommandRun(code: code, stdout: out.text, stderr: err.text)
}

/// Runs the whole command line in-process (parsing, help, usage errors), with the real services.
func runMain(_ arguments: [String], environment: [String: String] = [:]) -> CommandRun {
    let out = BufferOutput(), err = BufferOutput()
    let code = fullProgram.main(arguments, context: CommandContext(stdout: out, stderr: err, environment: environment))
    return CommandRun(code: code, stdout: out.text, stderr: err.text)
}

enum CLIFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let key = "sk-cli-SECRET0987654321zyxw"

    static func recording(id: String = "20231114-221320-ab12", language: String = "en-US", tags: [String] = ["work"]) -> Recording {
        Recording(id: id, name: "Budget meeting", createdAt: t0, durationSeconds: 3, language: language, tags: tags,
                  audio: AudioDescription(format: "wav", sampleRate: 8_000, channels: 1))
    }

    static let segments = [
        TranscriptSegment(text: "The marketing budget is too small.", startSeconds: 0, endSeconds: 1.0),
        TranscriptSegment(text: "Move budget from travel to marketing.", startSeconds: 1.1, endSeconds: 2.0),
        TranscriptSegment(text: "Marketing starts in March.", startSeconds: 2.1, endSeconds: 3.0),
    ]

    static func temporaryDirectory() throws -> URL {
        let url = try TestFolders.make("lt-cli")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 3-second, 8 kHz mono 16-bit WAV file of silence.
    static func wavFile(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("audio.wav")
        try WAVFixture.make(sampleRate: 8_000, audio: WAVFixture.silence(bytes: 48_000)).write(to: url)
        return url
    }

    static func store(withAudio audio: URL? = nil) -> InMemoryRecordingStore {
        let recording = recording()
        return InMemoryRecordingStore(recordings: [recording], transcripts: [recording.id: segments],
                                      audio: audio.map { [recording.id: $0] } ?? [:])
    }
}

/// A local recognizer that returns fixed segments and records its calls.
final class FakeLocalTranscriber: LocalTranscriber, @unchecked Sendable {
    var calls: [(URL, String)] = []
    let result: [TranscriptSegment]
    init(result: [TranscriptSegment]) { self.result = result }
    func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment] {
        calls.append((audioFile, language))
        return result
    }
    /// The fixed segments in the language given (this fake detects nothing).
    func transcript(of audioFile: URL, language: String, vocabulary: Vocabulary,
                    languageWarning: @escaping (String) -> Void) throws -> LocalTranscript {
        LocalTranscript(segments: try transcribe(audioFile: audioFile, language: language), language: language)
    }
}
