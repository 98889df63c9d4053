import Foundation
import LiveTranscriberCore
import Testing
import LiveTranscriberLinux

@Suite("livetranscriber record")
struct RecordCommandTests {
    @Test("a raw PCM file is transcribed, saved, and printed as JSON with segments")
    func recordRawToJSON() throws {
        let library = try TemporaryLibrary()
        let result = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max",
                                 "--name", "Directions", "--tags", "robot, test,robot", "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(saved.recording.name == "Directions")
        #expect(saved.recording.tags == ["robot", "test"])
        #expect(saved.recording.audio == AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(abs(saved.recording.durationSeconds - 2.786) < 0.01)
        #expect(saved.segments.map(\.text) == ["go forward ten meters"])
        #expect(library.recordingFolders == [saved.recording.id])
        #expect(library.draftFolders.isEmpty)
        // Plain progress lines went to stderr, so stdout is pure JSON.
        #expect(result.stderr.contains("go forward ten meters"))
    }

    @Test("without --json, one plain line per final segment and a saved line")
    func recordPlain() throws {
        let library = try TemporaryLibrary()
        let result = library.run("record", "--input", Speech.librivox, "--speed", "max", "--name", "Austen")
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("[0:00] ") == true)
        #expect(lines.last?.hasPrefix("Saved \"Austen\" as ") == true)
    }

    @Test("--format flac and opus store smaller files than WAV's 95,724 bytes that read back at full length",
          arguments: [("flac", 0.7), ("opus", 0.25)])
    func compressedFormats(format: String, largestFraction: Double) throws {
        let library = try TemporaryLibrary()
        let result = library.run("record", "--input", Speech.librivox, "--speed", "max", "--format", format, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(saved.recording.audio == AudioDescription(format: StoredAudioFormat(rawValue: format), sampleRate: 16_000, channels: 1))
        let audio = library.url.appendingPathComponent("recordings/\(saved.recording.id)/audio.\(format)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: audio.path)[.size] as? Int)
        #expect(Double(bytes) < 95_724 * largestFraction, "a \(format) file of \(bytes) bytes")
        let reader = try SndFileReader(path: audio.path)
        var frames = 0
        while let buffer = try reader.read(maxFrames: 4_096) { frames += buffer.frameCount }
        #expect(abs(frames - 47_840) < 400)
    }

    @Test("--discard leaves nothing in the library")
    func discard() throws {
        let library = try TemporaryLibrary()
        let result = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--discard")
        #expect(result.exitCode == 0)
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("bad input gives one clear line on stderr, exit 1, and nothing written", arguments: [
        (["--input", "/no/such/file.wav"], "no such file: /no/such/file.wav"),
        (["--input", "/etc/hostname"], "is not an audio file this tool can read"),
        (["--device", "lt_no_such_device"], "cannot capture from audio device 'lt_no_such_device'"),
        (["--input", "/usr/share/pocketsphinx/test/data/librivox/fileids"], "is not an audio file"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let library = try TemporaryLibrary()
        let speed = arguments.contains("--device") ? [] : ["--speed", "max"]
        let result = library.run(["record"] + speed + arguments)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("a language or model the engine cannot take is a usage error: one line, exit 64, nothing written", arguments: [
        (["--engine", "pocketsphinx", "--language", "de-DE"], "error: pocketsphinx knows only US English (en-US), not 'de-DE'"),
        (["--engine", "pocketsphinx", "--model", "/tmp/model.bin"], "error: pocketsphinx takes no --model; it uses Debian's pocketsphinx-en-us"),
        (["--engine", "whisper", "--language", "zz-ZZ"], "error: the whisper model ggml-base.bin does not support the language 'zz-ZZ'"),
    ])
    func engineUsageErrors(arguments: [String], message: String) throws {
        let library = try TemporaryLibrary()
        let result = library.run(["record", "--speed", "max", "--input", Speech.librivox] + arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr == message + "\n")
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("usage mistakes exit 64 and name the problem", arguments: [
        (["--input", "-"], "raw PCM input needs --rate"),
        (["--input", "x.raw"], "raw PCM input needs --rate"),
        (["--input", "a.wav", "--speed", "fast"], "--speed takes a number from 0.1 to 100 or 'max'"),
        (["--input", "a.wav", "--speed", "0.00000000000000001"], "--speed takes a number from 0.1 to 100"),
        (["--input", "a.wav", "--speed", "nan"], "--speed takes a number from 0.1 to 100"),
        (["--input", "a.wav", "--format", "mp3"], "--format takes wav, flac or opus"),
        (["--input", "a.wav", "--location", "100,0"], "--location takes LAT,LON"),
        (["--speed", "max"], "--speed applies to file input"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--input", "a.wav", "--name", "two\nlines"], "--name must be one line"),
        (["--input", "a.wav", "--name", " "], "--name cannot be empty"),
        (["--input", "a.wav", "--tags", "ok,bad\u{1B}[2J"], "a tag cannot contain control or invisible formatting characters (found U+001B)"),
        (["--input"], "missing value for '--input'"),
        (["--input", "a.wav", "--engine", "vosk"], "unknown speech engine 'vosk'; use whisper or pocketsphinx"),
        (["--input", "a.wav", "--language", "en US"], "the language must be a BCP 47 tag such as en-US or de, a language's English name such as German, or auto; not 'en US'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let library = try TemporaryLibrary()
        let result = library.run(["record"] + arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(library.recordingFolders.isEmpty)
    }

    @Test("an empty stdin, a few stray bytes, or 99.9 ms of audio (less than 0.1 s) records nothing and saves nothing", arguments: [
        Data(), Data("abc".utf8), Data(count: 318), Data(count: 3_198),
    ])
    func emptyStdin(input: Data) throws {
        let library = try TemporaryLibrary()
        let result = try runBinary(["record", "--input", "-", "--rate", "16000"], environment: library.environment, stdin: input)
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: no audio was recorded (the input was empty, or held less than 0.1 s of audio, too short to transcribe); nothing was saved\n")
        #expect(library.recordingFolders.isEmpty && library.draftFolders.isEmpty)
    }

    @Test("an empty option value, and a --tags value with no tag in it, are usage errors like tag --add ','", arguments: [
        (["record", "--input", "x.wav", "--device", ""], "error: '--device' needs a value; it was given an empty one"),
        (["record", "--input", "x.wav", "--device", "hw:99"], "error: --device is for the microphone, not --input"),
        (["record", "--input", "x.wav", "--tags", ",,,"], "error: a tag cannot be empty"),
        (["import", "x.wav", "--tags", " , "], "error: a tag cannot be empty"),
        (["tag", "latest", "--add", ","], "error: a tag cannot be empty"),
        (["import", ""], "error: PATH cannot be empty: give the path of an audio file"),
        (["import", "x.wav", "--model="], "error: '--model' needs a value; it was given an empty one"),
        (["search", ""], "error: <query> is empty; give the words to find"),
        (["search", " ", " "], "error: <query> is empty; give the words to find"),
        (["list", "--limit", "99999999999999999999"], "error: invalid value '99999999999999999999' for '--limit'; use a positive number no larger than 9223372036854775807"),
        (["list", "--offset", "99999999999999999999"], "error: invalid value '99999999999999999999' for '--offset'; use 0 or a positive number no larger than 9223372036854775807"),
        (["list", "--limit", "0"], "error: invalid value '0' for '--limit'; use a positive number"),
    ])
    func emptyValues(arguments: [String], message: String) throws {
        let library = try TemporaryLibrary()
        let result = library.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == message)
        #expect(library.recordingFolders.isEmpty)
    }

    @Test("importing an empty (0-byte) file says the file is empty")
    func importEmptyFile() throws {
        let library = try TemporaryLibrary()
        let empty = library.url.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        let result = library.run("import", empty.path)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: \(empty.path) holds no audio: the file is empty (0 bytes)\n1 of 1 file could not be imported.\n")
    }

    @Test("raw PCM on stdin at 8 kHz stereo is stored as stereo and transcribed")
    func stdinStereo() throws {
        let library = try TemporaryLibrary()
        // goforward.raw as two identical channels, at its own 16 kHz.
        let mono = try Data(contentsOf: URL(fileURLWithPath: Speech.goForward))
        var stereo = Data(capacity: mono.count * 2)
        for index in stride(from: 0, to: mono.count - 1, by: 2) {
            stereo.append(mono[index]); stereo.append(mono[index + 1])
            stereo.append(mono[index]); stereo.append(mono[index + 1])
        }
        let result = try runBinary(["record", "--input", "-", "--rate", "16000", "--channels", "2", "--json"],
                                   environment: library.environment, stdin: stereo)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(saved.recording.audio.channels == 2)
        #expect(saved.segments.map(\.text) == ["go forward ten meters"])
    }

    @Test("--help prints overview, usage and options on stdout with exit 0")
    func help() {
        let result = try! TemporaryLibrary().run("record", "--help")
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Record and transcribe live"))
        #expect(result.stdout.contains("USAGE: livetranscriber record"))
        #expect(result.stdout.contains("--activity-feed <path>"))
    }
}
