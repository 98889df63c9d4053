import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// Speaker labels with the real models (sherpa-onnx, pyannote segmentation-3.0, CAM++) and real
/// whisper, on a conversation of two recorded voices with known turns (scripts/make_speaker_set.py:
/// Allison Smith's Asterisk prompts and a LibriVox reader, both through 8 kHz).
@Suite("Speaker labels with the real models", .serialized)
struct SpeakerLabelsTests {
    struct Turn: Decodable { var speaker: String; var start: Double; var end: Double }
    struct Reference: Decodable { var speakers: Int; var turns: [Turn] }

    /// The conversation built into `folder`: its WAV and its turns.
    static func conversation(in folder: URL) throws -> (audio: URL, reference: Reference) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try ExternalTool.run("/usr/bin/python3", [root.appendingPathComponent("scripts/make_speaker_set.py").path, folder.path,
                                                  "--only", "spk2_en_phone"])
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: folder.appendingPathComponent("spk2_en_phone.turns.json")))
        return (folder.appendingPathComponent("spk2_en_phone.wav"), reference)
    }

    /// Where the labelled speaker changes: the start of each run's first segment, and its speaker.
    static func runs(_ segments: [TranscriptSegment]) -> [(start: Double, speaker: String?)] {
        var runs: [(start: Double, speaker: String?)] = []
        for segment in segments where runs.last?.speaker != segment.speaker || runs.isEmpty {
            runs.append((segment.startSeconds, segment.speaker))
        }
        return runs
    }

    func expectTurns(_ saved: RecordingWithTranscript, match reference: Reference) {
        #expect(saved.recording.speakers.map(\.id) == ["S1", "S2"])
        let runs = Self.runs(saved.segments)
        // Seven turns, A B A B A B A: the voices alternate as they spoke, each change within 0.5 s.
        #expect(runs.map(\.speaker) == ["S1", "S2", "S1", "S2", "S1", "S2", "S1"])
        for (run, turn) in zip(runs, reference.turns) {
            #expect(abs(run.start - turn.start) <= 0.5, "a turn that starts at \(turn.start) s is labelled from \(run.start) s")
        }
    }

    @Test func importLabelsBothVoicesAtTheirTurnsAndRetranscribeKeepsTheNamesGiven() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let (audio, reference) = try Self.conversation(in: cli.home.appendingPathComponent("set"))
        let imported = cli.run(["import", audio.path, "--json"])
        #expect(imported.code == 0, "\(imported.stderr)")
        let saved = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8)).first)
        expectTurns(saved, match: reference)
        #expect(try cli.store().transcript(of: saved.recording.id) == saved.segments)

        // The reader is named; a new transcript (with the speaker count given) keeps the name on the reader's voice.
        #expect(cli.run(["speaker", "latest", "S2", "--name", "Reader"]).code == 0)
        let again = cli.run(["retranscribe", "latest", "--speakers", "2", "--json"])
        #expect(again.code == 0, "\(again.stderr)")
        let retranscribed = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(again.stdout.utf8))
        expectTurns(retranscribed, match: reference)
        #expect(retranscribed.recording.speakers == [Speaker(id: "S1"), Speaker(id: "S2", name: "Reader")])
        #expect(cli.run(["show", "latest"]).stdout.contains("] Reader: And Mr. John Dashwood"))
    }

    @Test func missingOrDamagedModelsLeaveTheTranscriptUnlabelledWithANote() throws {
        let folder = try TestFolders.make("lt-speaker-models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let segments = [TranscriptSegment(text: "Hello.", startSeconds: 0, endSeconds: 1, speaker: "S3")]
        let audio = folder.appendingPathComponent("a.wav")
        try WAVFixture.make(audio: WAVFixture.silence(bytes: 64_000)).write(to: audio)

        let missing = SherpaOnnxDiarizer(models: SpeakerModelFiles(segmentation: folder.path + "/none.onnx", embedding: folder.path + "/none2.onnx"))
        let (unlabelled, result) = try SpeakerLabelling(diarizer: missing).label(segments, audio: audio)
        #expect(unlabelled.segments == [TranscriptSegment(text: "Hello.", startSeconds: 0, endSeconds: 1)])
        #expect(unlabelled.speakers == [])
        #expect(result.note == "note: speaker labels were not made: no speaker model at \(folder.path)/none.onnx; install the speaker "
            + "models with 'make deps' (scripts/install-speakers.sh), or give --no-speakers.")

        let damaged = folder.appendingPathComponent("damaged.onnx")
        try Data("not a model".utf8).write(to: damaged)
        let broken = SherpaOnnxDiarizer(models: SpeakerModelFiles(segmentation: damaged.path, embedding: SpeakerModelFiles.installed.embedding))
        #expect(throws: SpeakerModelsMissing(reason: "the speaker models in \(folder.path) cannot be loaded (damaged?)")) {
            try broken.turns(in: audio, speakerCount: nil)
        }
    }

    @Test func theProgramWithoutSpeakerModelsSavesTheTranscriptAndSaysHowToInstallThem() throws {
        let home = try TestFolders.make("lt-speaker-program")
        let models = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        for name in ["ggml-base.bin", WhisperModelFiles.voiceActivityFileName] {
            try FileManager.default.createSymbolicLink(atPath: models.appendingPathComponent(name).path,
                                                       withDestinationPath: WhisperModelFiles.sourceTreeFolder + "/" + name)
        }
        let audio = home.appendingPathComponent("short.wav")
        let (conversation, _) = try Self.conversation(in: home.appendingPathComponent("set"))
        try ExternalTool.run("/usr/bin/sox", [conversation.path, audio.path, "trim", "0", "13"])
        let process = Process()
        process.executableURL = try binaryURL().deletingLastPathComponent().appendingPathComponent("livetranscriber-full")
        process.arguments = ["import", audio.path, "--json"]
        process.environment = ["LIVETRANSCRIBER_HOME": home.appendingPathComponent("library").path, "LIVETRANSCRIBER_MODELS": models.path,
                               "PATH": "/usr/bin:/bin", "TZ": "UTC"]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stderr == "note: speaker labels were not made: no speaker model at \(models.path)/speaker-segmentation.onnx; install the "
            + "speaker models with 'make deps' (scripts/install-speakers.sh), or give --no-speakers.\n")
        let saved = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: stdout).first)
        #expect(saved.segments.count == 2)
        #expect(saved.segments.allSatisfy { $0.speaker == nil })
        #expect(saved.recording.speakers == [])
    }
}
