import Foundation
@testable import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// What a new user's trial from a fresh clone found (round five), through the built binary or
/// the command line in-process with its real engine: each fault as the user met it.
@Suite("a new user's trial, round five", .serialized)
struct NewUserTrialTests {
    /// A mono 16-bit WAV whose header states `rate` Hz over `samples` samples of 16 kHz speech.
    static func wav(stating rate: Int, in library: TemporaryLibrary, name: String, samples: Int = 16_000) throws -> String {
        let speech = try Data(contentsOf: URL(fileURLWithPath: Speech.librivox)).dropFirst(44).prefix(2 * samples)
        let path = library.url.appendingPathComponent(name).path
        try WAVFixture.make(sampleRate: rate, audio: speech).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file stating a sample rate outside 1000…384000 Hz: one line, exit 1, nothing saved and no draft (import, record)",
          arguments: [1, 999, 384_001, 500_000])
    func sampleRateOutsideTheRange(rate: Int) throws {
        let library = try TemporaryLibrary()
        let path = try Self.wav(stating: rate, in: library, name: "rate\(rate).wav")
        let line = "error: \(path) states a sample rate of \(rate) Hz; audio from 1000 to 384000 Hz can be read\n"
        let imported = try runBinary(["import", path], environment: library.environment)
        #expect(imported.exitCode == 1)
        #expect(imported.stderr == line + "1 of 1 file could not be imported.\n")
        #expect(imported.stdout == "")
        let recorded = try runBinary(["record", "--input", path, "--speed", "max"], environment: library.environment)
        #expect(recorded.exitCode == 1)
        #expect(recorded.stderr == line)
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("a file at 1000 Hz, the lowest rate taken, is imported")
    func lowestRateIsRead() throws {
        let library = try TemporaryLibrary()
        let path = try Self.wav(stating: 1_000, in: library, name: "slow.wav", samples: 3_000)
        let imported = try runBinary(["import", "--json", path], environment: library.environment)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8))
        #expect(saved.map(\.recording.durationSeconds) == [3])  // 3,000 samples at 1 kHz
        #expect(saved.map(\.recording.audio.sampleRate) == [1_000])
    }

    @Test("import - (no file of that name): one line saying to give /dev/stdin, exit 1, nothing saved")
    func dashIsNotStandardInput() throws {
        let library = try TemporaryLibrary()
        let result = try runBash(#"cat "$WAV" | $B import -"#, library: library, in: library.url, extra: ["WAV": Speech.librivox])
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: no such file: -; to import from a pipe, give /dev/stdin: cat talk.wav | livetranscriber import /dev/stdin\n"
            + "1 of 1 file could not be imported.\n")
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("a group given an unknown subcommand names it (exit 64); with none it asks for one")
    func unknownSubcommand() throws {
        let library = try TemporaryLibrary()
        let unknown = try runBinary(["activity", "bogus"], environment: library.environment)
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr == "error: unknown subcommand 'activity bogus'; use activity preview\n")
        let option = try runBinary(["activity", "--out", "x"], environment: library.environment)
        #expect(option.exitCode == 64)
        #expect(option.stderr == "error: 'activity' needs a subcommand: activity preview\n")
    }

    /// A transcriber that deletes the recording through the real `delete` command as it transcribes,
    /// as another command would meanwhile.
    final class DeletingTranscriber: LocalTranscriber, @unchecked Sendable {
        let library: TemporaryLibrary, id: String, readsAfter: Bool
        /// - Parameter readsAfter: read the audio after the delete, as a reader opening it then does (it is gone).
        init(library: TemporaryLibrary, id: String, readsAfter: Bool) { (self.library, self.id, self.readsAfter) = (library, id, readsAfter) }
        func transcribe(audioFile: URL, language: String) throws -> [TranscriptSegment] {
            #expect(library.run("delete", id).exitCode == 0)
            if readsAfter { _ = try SndFileReader(path: audioFile.path) }
            return [TranscriptSegment(text: "too late", startSeconds: 0, endSeconds: 1)]
        }
        func transcript(of audioFile: URL, language: String, vocabulary: Vocabulary,
                        languageWarning: @escaping (String) -> Void) throws -> LocalTranscript {
            LocalTranscript(segments: try transcribe(audioFile: audioFile, language: language), language: language)
        }
    }

    @Test("retranscribe of a recording deleted meanwhile (before its audio is read, or after) says so in one line (exit 1); the trashed recording keeps its transcript",
          arguments: [true, false])
    func retranscribeDeletedMeanwhile(readsAfter: Bool) throws {
        let library = try TemporaryLibrary()
        let imported = library.run("import", "--json", Speech.librivox)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let id = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8)).first).recording.id
        let transcript = library.url.appendingPathComponent("recordings/\(id)/transcript.json")
        let before = try Data(contentsOf: transcript)
        let run = runCommand(RetranscribeCommand.self, [id], environment: library.environment) {
            $0.services.localTranscriber = { _, _, _ in DeletingTranscriber(library: library, id: id, readsAfter: readsAfter) }
        }
        #expect(run.code == 1)
        #expect(run.stderr == "error: 'sense_and_sensibility_01_austen_64kb-0880' (\(id)) was deleted while it was being transcribed again; "
            + "the new transcript was not saved\n")
        #expect(library.recordingFolders.isEmpty)
        #expect(try Data(contentsOf: library.url.appendingPathComponent("trash/\(id)/transcript.json")) == before)
    }

    @Test("a file whose library copy lost its audio file is still skipped; the note, show and retranscribe say the audio is missing, in one sentence")
    func duplicateWithMissingAudio() throws {
        let library = try TemporaryLibrary()
        let imported = library.run("import", "--json", Speech.librivox)
        let id = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(imported.stdout.utf8)).first).recording.id
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("recordings/\(id)/audio.wav"))
        let again = try runBinary(["import", Speech.librivox], environment: library.environment)
        #expect(again.exitCode == 0)
        #expect(again.stderr == "note: skipped \(Speech.librivox): it is already in the library as \(id) 'sense_and_sensibility_01_austen_64kb-0880', "
            + "but its audio file is missing, so it cannot be played or transcribed again; add --again to import it once more.\n"
            + "1 of 1 file skipped (already in the library).\n")
        #expect(library.recordingFolders == [id])
        // show says it on the Audio line; retranscribe says it instead of "no such file".
        let shown = try runBinary(["show", id], environment: library.environment)
        #expect(shown.exitCode == 0)
        #expect(shown.stdout.components(separatedBy: "\n")[6]
            == "Audio:     wav, 16000 Hz, 1 channel; its audio file is missing, so it cannot be played or transcribed again")
        let retranscribed = try runBinary(["retranscribe", id], environment: library.environment)
        #expect(retranscribed.exitCode == 1)
        #expect(retranscribed.stderr == "error: \(id) 'sense_and_sensibility_01_austen_64kb-0880': its audio file is missing, "
            + "so it cannot be played or transcribed again\n")
    }

    @Test("import's progress bar moves once per stretch decoded (whisper, 1:39 read at once): never back, through three shares or more, to 100%")
    func importProgressMovesThroughTheTail() throws {
        let library = try TemporaryLibrary()
        // The five LibriVox sentences four times over as one 1:39 file: decoded in four stretches of
        // up to 27 s (`UtterancePacking`), the bar moving once per stretch.
        let folder = "/usr/share/pocketsphinx/test/data/librivox"
        let ids = try String(contentsOfFile: folder + "/fileids", encoding: .utf8).split(separator: "\n")
        var pcm = Data()
        for _ in 0..<4 {
            for id in ids { pcm.append(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(id).wav")).dropFirst(44)) }
        }
        let path = library.url.appendingPathComponent("long.wav")
        try WAVFixture.make(audio: pcm).write(to: path)
        let stdout = BufferOutput(), stderr = BufferOutput(isTerminal: true)
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let code = fullProgram.main(["import", path.path], context: CommandContext(stdout: stdout, stderr: stderr, environment: environment))
        #expect(code == 0, "\(stderr.text)")
        // Each redraw: "\r\u{1B}[Klong  [####....]  41%  0:03 elapsed  0:05 left".
        let shares = stderr.text.components(separatedBy: "\r\u{1B}[K").compactMap { line -> Int? in
            guard let close = line.firstIndex(of: "]"), let percent = line[close...].firstIndex(of: "%") else { return nil }
            return Int(line[line.index(after: close)..<percent].trimmingCharacters(in: .whitespaces))
        }
        #expect(shares.first == 0 && shares.last == 100, "\(shares)")
        #expect(shares == shares.sorted(), "\(shares)")
        #expect(Set(shares.filter { $0 > 0 && $0 < 100 }).count >= 3, "\(shares)")
    }
}
