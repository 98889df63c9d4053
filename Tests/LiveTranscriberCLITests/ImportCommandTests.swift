import CSndFile
import Foundation
import LiveTranscriberTestSupport
import LiveTranscriberCore
import LiveTranscriberTerminal
import Testing
@testable import LiveTranscriberLinux
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI

/// WAV files written byte by byte, so every header variant is exactly what the test says.
enum WAVBytes {
    enum Encoding: String, CaseIterable, Sendable {
        case pcm8, pcm16, pcm24, pcm32, float32

        var bits: Int { switch self { case .pcm8: 8; case .pcm16: 16; case .pcm24: 24; case .pcm32, .float32: 32 } }
        var formatTag: UInt16 { self == .float32 ? 3 : 1 }
    }

    static func make(samples: [Float], rate: Int, channels: Int, encoding: Encoding,
                     extensible: Bool = false, oddChunk: Bool = false) -> Data {
        var data = Data()
        let bytesPerSample = encoding.bits / 8
        for sample in samples {
            let clipped = max(-1, min(1, sample))
            switch encoding {
            case .pcm8: data.append(UInt8(clamping: Int((clipped * 127).rounded()) + 128))
            case .pcm16: data.append(contentsOf: WAVFixture.le16(UInt16(bitPattern: Int16(clamping: Int((clipped * 32_767).rounded())))))
            case .pcm24:
                let value = Int32(clamping: Int((clipped * 8_388_607).rounded()))
                data.append(contentsOf: WAVFixture.le32(UInt32(bitPattern: value)).prefix(3))
            case .pcm32: data.append(contentsOf: WAVFixture.le32(UInt32(bitPattern: Int32(clamping: Int((Double(clipped) * 2_147_483_647).rounded())))))
            case .float32: data.append(contentsOf: WAVFixture.le32(clipped.bitPattern))
            }
        }
        var fmt = WAVFixture.le16(extensible ? 0xFFFE : encoding.formatTag) + WAVFixture.le16(UInt16(channels))
        fmt += WAVFixture.le32(UInt32(rate)) + WAVFixture.le32(UInt32(rate * channels * bytesPerSample))
        fmt += WAVFixture.le16(UInt16(channels * bytesPerSample)) + WAVFixture.le16(UInt16(encoding.bits))
        if extensible {
            fmt += WAVFixture.le16(22) + WAVFixture.le16(UInt16(encoding.bits))
            fmt += WAVFixture.le32(channels == 2 ? 3 : 4)  // front left+right, or front centre
            fmt += WAVFixture.le32(UInt32(encoding.formatTag))  // the sub-format GUID's first four bytes
            fmt += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if encoding == .float32 {
            fmt += WAVFixture.le16(0)
        }
        var body = Array("WAVE".utf8) + WAVFixture.chunk("fmt ", fmt)
        if oddChunk { body += WAVFixture.chunk("note", [0x61, 0x62, 0x63]) }  // 3 bytes and a pad byte
        body += WAVFixture.chunk("data", [UInt8](data))
        return Data(Array("RIFF".utf8) + WAVFixture.le32(UInt32(body.count)) + body)
    }
}

/// goforward.raw (16 kHz mono) as floats.
func goForwardSamples() throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: Speech.goForward))
    return data.withUnsafeBytes { raw in
        (0..<data.count / 2).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32_768 }
    }
}

/// goforward.raw at 44.1 kHz stereo (the same speech in both channels).
func goForwardStereo44k() throws -> [Float] {
    let resampler = try SoxrResampler(inputRate: 16_000, outputRate: 44_100)
    let mono = try resampler.process(goForwardSamples()) + resampler.flush()
    return mono.flatMap { [$0, $0] }
}

@Suite("livetranscriber import")
struct ImportCommandTests {
    @Test("WAV in every sample format, plain or WAVE_FORMAT_EXTENSIBLE, with an odd-sized chunk, transcribes the same",
          arguments: WAVBytes.Encoding.allCases, [false, true])
    func wavVariants(encoding: WAVBytes.Encoding, extensible: Bool) throws {
        let library = try TemporaryLibrary()
        let path = library.url.appendingPathComponent("speech-\(encoding.rawValue).wav")
        try WAVBytes.make(samples: goForwardSamples(), rate: 16_000, channels: 1, encoding: encoding,
                          extensible: extensible, oddChunk: true).write(to: path)
        let result = library.run("import", path.path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(saved.map { $0.segments.map(\.text) } == [["go forward ten meters"]])
        #expect(saved.first?.recording.name == "speech-\(encoding.rawValue)")
        #expect(abs((saved.first?.recording.durationSeconds ?? 0) - 2.786) < 0.01)
    }

    @Test("FLAC, Ogg Vorbis, Ogg Opus and MP3 at 44.1 or 48 kHz stereo transcribe the same", arguments: [
        ("flac", Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), 44_100),
        ("ogg", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), 44_100),
        ("opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), 48_000),
        ("mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), 44_100),
    ])
    func compressedFormats(fileExtension: String, libsndfileFormat: Int32, rate: Int) throws {
        let library = try TemporaryLibrary()
        let path = library.url.appendingPathComponent("speech.\(fileExtension)").path
        let resampler = try SoxrResampler(inputRate: 16_000, outputRate: rate)
        let mono = try resampler.process(goForwardSamples()) + resampler.flush()
        let writer = try SndFileWriter(path: path, format: AudioFormat(sampleRate: rate, channels: 2),
                                       libsndfileFormat: libsndfileFormat, name: fileExtension)
        try writer.write(AudioBuffer(samples: mono.flatMap { [$0, $0] }, channels: 2))
        try writer.close()
        let result = library.run("import", path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(saved.first?.segments.map(\.text) == ["go forward ten meters"])
        #expect(saved.first?.recording.audio.channels == 2)
    }

    @Test("a corrupt file is reported, leaves nothing behind, and the other files are still imported")
    func partialFailure() throws {
        let library = try TemporaryLibrary()
        let good = library.url.appendingPathComponent("good.wav")
        try WAVBytes.make(samples: goForwardStereo44k(), rate: 44_100, channels: 2, encoding: .pcm16).write(to: good)
        let corrupt = library.url.appendingPathComponent("corrupt.wav")
        var bytes = Data("RIFF".utf8)
        bytes.append(contentsOf: WAVFixture.le32(1_000))
        bytes.append(Data("WAVEfmt garbage that is not a format chunk".utf8))
        try bytes.write(to: corrupt)
        let result = library.run("import", corrupt.path, good.path)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("corrupt.wav is not an audio file this tool can read"))
        #expect(result.stderr.contains("1 of 2 files could not be imported."))
        #expect(result.stdout.hasPrefix("Imported \(good.path) as "))
        #expect(library.recordingFolders.count == 1)
        #expect(library.draftFolders.isEmpty)
    }

    @Test("the progress bar counts audio transcribed, not read; its last line is 100% only when the whole file was read; a stopped import keeps its share")
    func progressBarAfterStop() {
        // 9.9 s read, 6.2 s transcribed: the bar is at 62%, not 99%.
        let snapshot = LiveViewSnapshot(presentation: nil, elapsedSeconds: 9.9, transcribedSeconds: 6.2, totalSeconds: 10, finals: [],
                                        interim: nil, acceptsKeys: false)
        #expect(ProgressBarDisplay.finalLine(label: "long", snapshot, reachedEnd: false, wallSeconds: 6.4)
            == "long  [##############..........]  62%  0:06 elapsed  stopped")
        #expect(ProgressBarDisplay.finalLine(label: "long", snapshot, reachedEnd: true, wallSeconds: 6.4)
            == "long  [########################] 100%  0:06 elapsed  0:00 left")
    }

    @Test("the time left is estimated only once 1% of the audio, or 10 s of it, is transcribed", arguments: [
        (0.0, 24.73, 0.4, "long  [........................]   0%  0:00 elapsed"),
        (0.024, 24.73, 8.0, "long  [........................]   0%  0:08 elapsed"),  // the first utterance decoding: before, "27:50 left"
        (7.16, 24.73, 4.0, "long  [######..................]  28%  0:04 elapsed  0:10 left"),
        (10.0, 2_000.0, 10.0, "long  [........................]   0%  0:10 elapsed  33:10 left"),
        (24.73, 24.73, 9.0, "long  [########################] 100%  0:09 elapsed  0:00 left"),
    ])
    func timeLeft(done: Double, total: Double, wall: Double, expected: String) {
        #expect(ProgressBarText.line(label: "long", done: done, total: total, wallSeconds: wall) == expected)
    }

    @Test("the progress bar fits the terminal with its last column free: the bar narrows to 8 cells, then the name is cut, then the line", arguments: [
        (80, "Sense and Sensibility  [######..................]  28%  0:04 elapsed  0:10 left"),
        (60, "Sense and Sensib…  [##......]  28%  0:04 elapsed  0:10 left"),
        (40, "Sense a…  [##......]  28%  0:04 elapse…"),
    ])
    func progressBarFits(columns: Int, expected: String) {
        let line = ProgressBarText.fitted(columns: columns, label: "Sense and Sensibility") { label, width in
            ProgressBarText.line(label: label, done: 7.16, total: 24.73, wallSeconds: 4, width: width)
        }
        #expect(line == expected)
        #expect(TerminalText.columns(of: line) <= columns - 1)
    }

    @Test("importing audio already in the library is skipped with a note (exit 0) and needs --again; the same samples as FLAC count as the same")
    func duplicates() throws {
        let library = try TemporaryLibrary()
        let wav = library.url.appendingPathComponent("memo.wav")
        try WAVBytes.make(samples: goForwardSamples(), rate: 16_000, channels: 1, encoding: .pcm16).write(to: wav)
        let first = library.run("import", wav.path)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let id = try #require(library.recordingFolders.first)
        let again = library.run("import", wav.path)
        #expect(again.exitCode == 0)
        #expect(again.stdout == "")
        #expect(again.stderr == "note: skipped \(wav.path): it is already in the library as \(id) 'memo'; add --again to import it once more.\n1 of 1 file skipped (already in the library).\n")
        // A skipped file and a failing one: the failure sets the exit code, the summary counts both.
        let missing = library.url.appendingPathComponent("missing.wav").path
        let mixed = library.run("import", wav.path, missing)
        #expect(mixed.exitCode == 1)
        #expect(mixed.stderr.hasSuffix("1 of 2 files could not be imported; 1 skipped (already in the library).\n"))
        // The same samples in another container, under another name.
        let flac = library.url.appendingPathComponent("copy.flac").path
        let writer = try SndFileWriter(path: flac, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), name: "flac")
        try writer.write(AudioBuffer(samples: goForwardSamples(), channels: 1))
        try writer.close()
        #expect(library.run("import", flac).stderr.hasPrefix("note: skipped \(flac): it is already in the library as \(id) 'memo'"))
        #expect(library.recordingFolders.count == 1)
        let forced = library.run("import", wav.path, "--again", "--json")
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(forced.stdout.utf8))
        #expect(saved.first?.recording.audioDigest?.hasPrefix("sha256:") == true)
        #expect(saved.first?.recording.audioDigest?.count == 71)
        #expect(library.recordingFolders.count == 2)
    }

    @Test("audio saved by record is in the library: importing the same audio says so and needs --again")
    func recordedAudioIsADuplicate() throws {
        let library = try TemporaryLibrary()
        let wav = library.url.appendingPathComponent("memo.wav")
        try WAVBytes.make(samples: goForwardSamples(), rate: 16_000, channels: 1, encoding: .pcm16).write(to: wav)
        let recorded = library.run("record", "--input", wav.path, "--speed", "max", "--name", "Standup", "--json")
        #expect(recorded.exitCode == 0, "\(recorded.stderr)")
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(recorded.stdout.utf8))
        let id = saved.recording.id
        // The digest of the audio file record wrote, which holds the same samples as memo.wav.
        #expect(saved.recording.audioDigest == (try AudioDigest.of(path: wav.path)))
        let again = library.run("import", wav.path)
        #expect(again.exitCode == 0)
        #expect(again.stdout == "")
        #expect(again.stderr == "note: skipped \(wav.path): it is already in the library as \(id) 'Standup'; add --again to import it once more.\n1 of 1 file skipped (already in the library).\n")
        #expect(library.recordingFolders == [id])
    }

    @Test("a file name with control characters gives a clean one-line name", arguments: [
        ("two\nlines\u{1B}[31m", "two lines"), ("evil\u{1B}[31m", "evil"), ("a\u{1B}]0;title\u{7}b", "a b"), ("  spaced\tout  ", "spaced out"), ("\u{7}", "Imported audio"),
    ])
    func namesFromFileNames(fileName: String, name: String) {
        #expect(OptionParsing.name(fromFileName: fileName) == name)
    }

    @Test("import with no path is a usage error")
    func noPath() throws {
        let result = try TemporaryLibrary().run("import")
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("error: missing PATH"))
    }
}
