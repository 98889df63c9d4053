import Foundation
import LiveTranscriberTestSupport
import Testing

/// `record` and `import` into a library that does not exist yet: a command that fails, or ends
/// with nothing saved, leaves no library behind (docs/library.md, "A library that does not exist yet").
@Suite("a library that does not exist yet, through the built program")
struct NewLibraryTests {
    /// Everything under `folder`, as relative paths, sorted.
    static func contents(of folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
    }

    static func environment(home: URL, engine: String = "pocketsphinx") -> [String: String] {
        ["LIVETRANSCRIBER_HOME": home.path, "HOME": home.deletingLastPathComponent().path, "LIVETRANSCRIBER_ENGINE": engine]
    }

    @Test("record and import that fail (a damaged model, a missing file, no audio) or discard create no library folder")
    func failingCommandsCreateNothing() throws {
        let scratch = try TestFolders.make("lt-new-library")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let model = scratch.appendingPathComponent("damaged.bin")
        try Data(repeating: 0x5A, count: 4096).write(to: model)
        let outside = try TestFolders.make("lt-new-library-root")
        defer { try? FileManager.default.removeItem(at: outside) }
        let home = outside.appendingPathComponent("new/library")
        let damaged = "error: the model \(model.path) cannot be loaded: it is damaged, truncated or not a ggml Whisper model (given with --model)\n"
        let cases: [(arguments: [String], stdin: Data?, code: Int32, stdout: String, stderr: String)] = [
            (["record", "--engine", "whisper", "--model", model.path, "--input", Speech.librivox, "--speed", "max"], nil, 1, "", damaged),
            (["import", "--engine", "whisper", "--model", model.path, Speech.librivox], nil, 1, "",
             damaged + "1 of 1 file could not be imported.\n"),
            (["record", "--input", scratch.appendingPathComponent("missing.wav").path], nil, 1, "",
             "error: no such file: \(scratch.appendingPathComponent("missing.wav").path)\n"),
            (["record", "--input", "-", "--rate", "16000"], Data("abc".utf8), 1, "",
             "error: no audio was recorded (the input was empty, or held less than 0.1 s of audio, too short to transcribe); nothing was saved\n"),
            (["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--discard"], nil, 0,
             "[0:00] go forward ten meters\nDiscarded the recording.\n", ""),
        ]
        for expected in cases {
            let result = try runBinary(expected.arguments, environment: Self.environment(home: home), stdin: expected.stdin)
            #expect(result.exitCode == expected.code, "\(expected.arguments)")
            #expect(result.stdout == expected.stdout, "\(expected.arguments)")
            #expect(result.stderr == expected.stderr, "\(expected.arguments)")
            #expect(Self.contents(of: outside) == [], "\(expected.arguments)")
        }
    }

    @Test("a failing record in an existing folder that holds no library leaves the folder as it was")
    func existingFolderIsLeftAsItWas() throws {
        let home = try TestFolders.make("lt-new-library-home")
        defer { try? FileManager.default.removeItem(at: home) }
        try Data("sk-test\n".utf8).write(to: home.appendingPathComponent("openai-api-key"))
        let result = try runBinary(["record", "--input", home.appendingPathComponent("missing.wav").path],
                                   environment: Self.environment(home: home))
        #expect(result.exitCode == 1)
        #expect(Self.contents(of: home) == ["openai-api-key"])
    }

    @Test("a record that saves creates the library, parent folders included")
    func savingCreatesTheLibrary() throws {
        let outside = try TestFolders.make("lt-new-library-root")
        defer { try? FileManager.default.removeItem(at: outside) }
        let home = outside.appendingPathComponent("new/library")
        let result = try runBinary(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--name", "Kept"],
                                   environment: Self.environment(home: home))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("recordings").path)
        #expect(folders.count == 1)
    }
}
