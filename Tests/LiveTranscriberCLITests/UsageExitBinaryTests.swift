import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// Option values that only the engine, the model or the library's place can judge are usage errors
/// too: exit 64, one error line, checked before anything is read, uploaded or changed.
@Suite("option values the engine cannot take: exit 64 through the built binary", .serialized)
struct UsageExitBinaryTests {
    /// A library holding one recording (pocketsphinx, so no model is loaded to make it), its id,
    /// and what `list --json` says of it.
    static func libraryWithOneRecording() throws -> (TemporaryLibrary, String, String) {
        let library = try TemporaryLibrary()
        let imported = try runBinary(["import", "--json", Speech.librivox], environment: library.environment)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8))
        let list = try runBinary(["list", "--json"], environment: library.environment)
        return (library, try #require(saved.first).recording.id, list.stdout)
    }

    @Test("import --language zz-ZZ with the default engine (whisper): exit 64, one line, nothing imported")
    func importUnknownLanguage() throws {
        let (library, _, before) = try Self.libraryWithOneRecording()
        // No LIVETRANSCRIBER_ENGINE: the default engine, whisper with its installed model.
        let whisper = library.environment.merging(["LIVETRANSCRIBER_ENGINE": ""]) { $1 }
        let other = library.url.appendingPathComponent("other.wav")
        try FileManager.default.copyItem(atPath: "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav",
                                         toPath: other.path)
        let result = try runBinary(["import", "--language", "zz-ZZ", other.path], environment: whisper)
        #expect(result.exitCode == 64)
        #expect(result.stderr == "error: the whisper model ggml-base.bin does not support the language 'zz-ZZ'\n")
        #expect(result.stdout == "")
        #expect(try runBinary(["list", "--json"], environment: library.environment).stdout == before)
        #expect(library.recordingFolders.count == 1 && library.draftFolders.isEmpty)
    }

    @Test("retranscribe --engine openai --language auto: exit 64, one error line, nothing uploaded or changed")
    func openAIAuto() throws {
        let (library, id, before) = try Self.libraryWithOneRecording()
        let transcript = try runBinary(["show", id], environment: library.environment).stdout
        // A key and a server that does not exist: the refusal must come before any upload is tried.
        let environment = library.environment.merging(["OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"]) { $1 }
        let result = try runBinary(["retranscribe", id, "--engine", "openai", "--language", "auto"], environment: environment)
        #expect(result.exitCode == 64)
        #expect(result.stderr.components(separatedBy: "\n").first
            == "error: --language auto is for the local engines; name the language for openai (or leave it out to keep the recording's)")
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("error:") }.count == 1)
        #expect(!result.stderr.contains("Uploading"))
        #expect(try runBinary(["list", "--json"], environment: library.environment).stdout == before)
        #expect(try runBinary(["show", id], environment: library.environment).stdout == transcript)
    }

    @Test("every engine option the engine cannot take exits 64 with its one line, the library unchanged", arguments: [
        (["import", "--engine", "pocketsphinx", "--language", "de", "--again", "FILE"], "error: pocketsphinx knows only US English (en-US), not 'de'\n"),
        (["import", "--engine", "pocketsphinx", "--model", "/tmp/m.bin", "--again", "FILE"],
         "error: pocketsphinx takes no --model; it uses Debian's pocketsphinx-en-us\n"),
        (["record", "--input", "FILE", "--speed", "max", "--engine", "whisper", "--language", "zz"],
         "error: the whisper model ggml-base.bin does not support the language 'zz'\n"),
        (["retranscribe", "ID", "--engine", "pocketsphinx", "--language", "fr-FR"], "error: pocketsphinx knows only US English (en-US), not 'fr-FR'\n"),
        (["retranscribe", "ID", "--engine", "whisper", "--language", "xx"], "error: the whisper model ggml-base.bin does not support the language 'xx'\n"),
        (["retranscribe", "ID", "--engine", "pocketsphinx", "--model", "/tmp/m.bin"],
         "error: pocketsphinx takes no --model; it uses Debian's pocketsphinx-en-us\n"),
        (["export", "ID", "--format", "txt", "--output", "LIBRARY/out.txt"],
         "error: cannot write LIBRARY/out.txt: it is inside the library (LIBRARY); write it somewhere else\n"),
        (["record", "--input", "FILE", "--speed", "max", "--events", "LIBRARY/events.jsonl"],
         "error: cannot write LIBRARY/events.jsonl: it is inside the library (LIBRARY); write it somewhere else\n"),
    ])
    func engineOptions(arguments: [String], message: String) throws {
        let (library, id, before) = try Self.libraryWithOneRecording()
        let transcript = try runBinary(["show", id], environment: library.environment).stdout
        let filled = arguments.map {
            $0.replacingOccurrences(of: "FILE", with: Speech.librivox).replacingOccurrences(of: "ID", with: id)
                .replacingOccurrences(of: "LIBRARY", with: library.url.path)
        }
        let result = try runBinary(filled, environment: library.environment)
        #expect(result.exitCode == 64)
        #expect(result.stderr == message.replacingOccurrences(of: "LIBRARY", with: library.url.path))
        #expect(try runBinary(["list", "--json"], environment: library.environment).stdout == before)
        #expect(try runBinary(["show", id], environment: library.environment).stdout == transcript)
        #expect(library.draftFolders.isEmpty)
    }
}
