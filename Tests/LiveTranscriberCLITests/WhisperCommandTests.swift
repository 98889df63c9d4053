import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
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
}
