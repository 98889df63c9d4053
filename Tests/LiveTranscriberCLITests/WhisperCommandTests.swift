import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The default engine through the command line: whisper.cpp when its model is installed (as
/// `make test` installs it), chosen by no option at all.
@Suite("livetranscriber with the default engine")
struct WhisperCommandTests {
    /// The library's environment without the engine the other command tests name.
    static func defaultEnvironment(_ library: TemporaryLibrary) -> [String: String] {
        library.environment.filter { $0.key != LinuxSpeechEngines.engineVariable }
    }

    @Test("record with no --engine uses whisper and writes its words, punctuated")
    func recordsWithWhisper() throws {
        let library = try TemporaryLibrary()
        let result = try runBinary(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--json"],
                                   environment: Self.defaultEnvironment(library))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(saved.segments.map(\.text) == ["Go forward 10 meters."])
        #expect(WordErrorRate.normalizedWords(saved.segments.map(\.text).joined(separator: " ")) == ["go", "forward", "10", "meters"])  // number words become digits
    }

    @Test("import decodes a file as retranscribe does: the same segments, words and times")
    func importMatchesRetranscribe() throws {
        let library = try TemporaryLibrary()
        // The five LibriVox clips one after another: 24.7 s of fluent reading, as BENCHMARKS.md times an import.
        var samples: [Float] = []
        for id in ["0870", "0880", "0890", "0920", "0930"] {
            let reader = try SndFileReader(path: "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-\(id).wav")
            while let buffer = try reader.read(maxFrames: 65_536) { samples += buffer.samples }
        }
        let audio = library.url.appendingPathComponent("fluent.wav")
        try WAVBytes.make(samples: samples, rate: 16_000, channels: 1, encoding: .pcm16).write(to: audio)
        let environment = Self.defaultEnvironment(library)
        let imported = try runBinary(["import", audio.path, "--language", "en-US", "--json"], environment: environment)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let saved = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8)).first)
        let again = try runBinary(["retranscribe", saved.recording.id, "--engine", "local"], environment: environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let retranscribed = try RetranscribeProcessTests.show(saved.recording.id, library)
        #expect(saved.segments == retranscribed.segments)
        #expect(saved.segments.map(\.text) == [
            "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.",
            "He was not an ill-disposed young man,",
            "unless to be rather cold-hearted and rather selfish, is to be ill-disposed.",
            "Had he married a more amiable woman, he might have been made still more respectable than he was.",
            "He might even have been made amiable himself.",
        ])
    }

    @Test("LIVETRANSCRIBER_ENGINE picks the default; a name it does not know is a usage error")
    func engineVariable() throws {
        let library = try TemporaryLibrary()
        var environment = Self.defaultEnvironment(library)
        environment[LinuxSpeechEngines.engineVariable] = "vosk"
        let result = try runBinary(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max"], environment: environment)
        #expect(result.exitCode == 64)
        #expect(result.stderr == "error: LIVETRANSCRIBER_ENGINE: unknown speech engine 'vosk'; use whisper or pocketsphinx\n")
        #expect(library.recordingFolders.isEmpty)
    }

    /// A models folder holding the installed VAD model and the first `bytes` bytes of the Whisper model.
    static func modelsFolder(cutTo bytes: Int?) throws -> URL {
        let folder = try TestFolders.make("lt-models")
        let installed = WhisperModelFiles.installed
        guard let bytes else { return folder }
        try FileManager.default.copyItem(atPath: installed.voiceActivityModel,
                                         toPath: folder.appendingPathComponent("ggml-silero-vad.bin").path)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: installed.model))
        defer { try? handle.close() }
        try handle.readData(ofLength: bytes).write(to: folder.appendingPathComponent("ggml-base.bin"))
        return folder
    }

    @Test("a damaged or truncated whisper model: one line, exit 1, nothing saved, no draft left (record, import, --model)")
    func damagedModel() throws {
        for bytes in [1000, 300_000] {
            let library = try TemporaryLibrary()
            let models = try Self.modelsFolder(cutTo: bytes)
            defer { try? FileManager.default.removeItem(at: models) }
            let model = models.appendingPathComponent("ggml-base.bin").path
            var environment = Self.defaultEnvironment(library)
            environment["LIVETRANSCRIBER_MODELS"] = models.path
            let line = "error: the whisper model \(model) cannot be loaded: it is damaged or truncated; reinstall LiveTranscriber or put a good copy of ggml-base.bin in \(models.path) (or set LIVETRANSCRIBER_MODELS to a folder that holds it), or use --engine pocketsphinx\n"
            for arguments in [["record", "--input", Speech.librivox, "--speed", "max", "--discard"],
                              ["record", "--input", Speech.librivox, "--speed", "max"]] {
                let result = try runBinary(arguments, environment: environment)
                #expect(result.exitCode == 1)
                #expect(result.stderr == line)
            }
            let imported = try runBinary(["import", Speech.librivox], environment: environment)
            #expect(imported.exitCode == 1)
            #expect(imported.stderr == line + "1 of 1 file could not be imported.\n")
            let own = try runBinary(["record", "--model", model, "--input", Speech.librivox, "--speed", "max"],
                                    environment: Self.defaultEnvironment(library))
            #expect(own.exitCode == 1)
            #expect(own.stderr == "error: the model \(model) cannot be loaded: it is damaged, truncated or not a ggml Whisper model (given with --model)\n")
            #expect(library.recordingFolders.isEmpty)
            #expect(library.draftFolders.isEmpty)
        }
    }

    @Test("record --model with a folder says it is a folder")
    func folderAsModel() throws {
        let library = try TemporaryLibrary()
        let result = try runBinary(["record", "--model", library.url.path, "--input", Speech.goForward, "--rate", "16000", "--speed", "max"],
                                   environment: Self.defaultEnvironment(library))
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: \(library.url.path) is a folder, not a whisper model file (a ggml .bin file)\n")
        #expect(library.recordingFolders.isEmpty)
    }

    @Test("without whisper's models the default falls back to pocketsphinx with one note; a chosen engine gets none")
    func fallbackNote() throws {
        let models = try Self.modelsFolder(cutTo: nil)
        defer { try? FileManager.default.removeItem(at: models) }
        let note = "note: transcribing with pocketsphinx: the whisper model \(models.path)/ggml-base.bin is not installed; reinstall LiveTranscriber or put ggml-base.bin in \(models.path) (or set LIVETRANSCRIBER_MODELS to a folder that holds it); or choose an engine with --engine\n"
        for (arguments, variable, expected) in [([String](), nil as String?, note), (["--engine", "pocketsphinx"], nil, ""), ([], "pocketsphinx", "")] {
            let library = try TemporaryLibrary()
            var environment = Self.defaultEnvironment(library)
            environment["LIVETRANSCRIBER_MODELS"] = models.path
            if let variable { environment[LinuxSpeechEngines.engineVariable] = variable }
            let result = try runBinary(["import", "--no-speakers"] + arguments + [Speech.librivox, "--json"], environment: environment)
            #expect(result.exitCode == 0)
            #expect(result.stderr == expected)
            #expect(library.recordingFolders.count == 1)
        }
    }
}
