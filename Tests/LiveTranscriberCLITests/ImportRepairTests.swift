import CSndFile
import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// Files other programs left damaged or unusual: read what they hold and say what was done.
@Suite("import of damaged and unusual files")
struct ImportRepairTests {
    /// goforward.raw padded with silence to exactly 7.1 s (113,600 frames at 16 kHz).
    func sevenPointOneSeconds() throws -> [Float] {
        let speech = try goForwardSamples()
        return speech + [Float](repeating: 0, count: 113_600 - speech.count)
    }

    @Test("a WAV whose RIFF and data sizes are 0 imports as its 7.1 s, and the import says it repaired the length")
    func zeroSizedWAV() throws {
        let library = try TemporaryLibrary()
        var bytes = WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16)
        bytes.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        bytes.replaceSubrange(40..<44, with: [0, 0, 0, 0])
        let path = library.url.appendingPathComponent("crashed recorder.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))

        let result = library.run("import", path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "note: \(path) has a WAV header that was never finished (it states no length, as a recorder that crashed leaves it); repaired the length while reading: 0:07 of audio follow the header\n")
        let imported = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(imported.map(\.recording.durationSeconds) == [7.1])
        #expect(imported.first?.segments.map(\.text) == ["go forward ten meters"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)  // the user's file is not touched
    }

    @Test("record --input of the same file reads it the same way")
    func zeroSizedWAVRecorded() throws {
        let library = try TemporaryLibrary()
        var bytes = WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16)
        bytes.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let path = library.url.appendingPathComponent("placeholder.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = library.run("record", "--input", path, "--speed", "max", "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("note: \(path) has a WAV header that was never finished"))
        let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8))
        #expect(saved.recording.durationSeconds == 7.1)
    }

    @Test("a file with no audio at all is reported as such, not as an empty input")
    func noAudio() throws {
        let library = try TemporaryLibrary()
        let path = library.url.appendingPathComponent("empty.wav").path
        try WAVBytes.make(samples: [], rate: 16_000, channels: 1, encoding: .pcm16).write(to: URL(fileURLWithPath: path))
        let result = library.run("import", path)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: \(path) holds no audio (less than 0.1 s, too short to transcribe); nothing was imported from it\n"
            + "1 of 1 file could not be imported.\n")
        #expect(library.recordingFolders == [])
    }

    @Test("a WAV cut off 31 ms after its header (its header states 7.1 s) is no audio for import and record, not a 0:00 recording")
    func cutOffAfterHeader() throws {
        let library = try TemporaryLibrary()
        let path = library.url.appendingPathComponent("cut off.wav").path
        // The 44-byte header of the whole 7.1 s, then 500 frames (1,000 bytes): 31.25 ms.
        try WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16).prefix(44 + 1_000)
            .write(to: URL(fileURLWithPath: path))
        let note = "note: \(path) has a WAV header that was never finished (it states 0:07 of audio, more than the file holds, "
            + "as a recorder that crashed leaves it); repaired the length while reading: 0:00 of audio follow the header\n"
        let imported = library.run("import", path)
        #expect(imported.exitCode == 1)
        #expect(imported.stdout == "")
        #expect(imported.stderr == note
            + "error: \(path) holds no audio (less than 0.1 s, too short to transcribe); nothing was imported from it\n"
            + "1 of 1 file could not be imported.\n")
        let recorded = library.run("record", "--input", path, "--speed", "max")
        #expect(recorded.exitCode == 1)
        #expect(recorded.stderr == note
            + "error: no audio was recorded (the input was empty, or held less than 0.1 s of audio, too short to transcribe); nothing was saved\n")
        #expect(library.recordingFolders == [])
        #expect(library.draftFolders == [])
    }

    @Test("an empty file and a WAV header with no data chunk are said to hold no audio, by import and by record")
    func emptyFiles() throws {
        let library = try TemporaryLibrary()
        let empty = library.url.appendingPathComponent("empty.wav").path
        try Data().write(to: URL(fileURLWithPath: empty))
        // RIFF header and fmt chunk (36 bytes), cut off before the data chunk.
        let headerOnly = library.url.appendingPathComponent("header only.wav").path
        try WAVBytes.make(samples: [], rate: 16_000, channels: 1, encoding: .pcm16).prefix(36).write(to: URL(fileURLWithPath: headerOnly))
        let result = library.run("import", empty, headerOnly)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: \(empty) holds no audio: the file is empty (0 bytes)\n"
            + "error: \(headerOnly) holds no audio: it is a WAV header with no audio after it (36 bytes, no 'data' chunk)\n"
            + "2 of 2 files could not be imported.\n")
        let recorded = library.run("record", "--input", empty, "--speed", "max")
        #expect(recorded.exitCode == 1)
        #expect(recorded.stderr == "error: \(empty) holds no audio: the file is empty (0 bytes)\n")
        #expect(library.recordingFolders == [])
        #expect(library.draftFolders == [])
    }

    @Test("a WAV header stating 0 Hz (which libsndfile refuses as an incomplete SF_INFO) is refused with the rate it states, by import and by record")
    func zeroRate() throws {
        let library = try TemporaryLibrary()
        var bytes = WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16)
        bytes.replaceSubrange(24..<32, with: [UInt8](repeating: 0, count: 8))  // sample rate and byte rate
        let path = library.url.appendingPathComponent("zero.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let line = "error: \(path) states a sample rate of 0 Hz; audio from 1000 to 384000 Hz can be read\n"
        let imported = library.run("import", path)
        #expect(imported.exitCode == 1)
        #expect(imported.stderr == line + "1 of 1 file could not be imported.\n")
        let recorded = library.run("record", "--input", path, "--speed", "max")
        #expect(recorded.exitCode == 1)
        #expect(recorded.stderr == line)
        #expect(library.recordingFolders == [])
        #expect(library.draftFolders == [])
    }

    @Test("--events or --activity-feed naming the input file (or a link to it), or each other, is a usage error that leaves the input as it was")
    func outputOverTheInput() throws {
        let library = try TemporaryLibrary()
        let outside = try TemporaryLibrary()  // another folder: outputs inside the library are refused anyway
        let bytes = WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16)
        let path = outside.url.appendingPathComponent("talk.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let link = outside.url.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let feed = outside.url.appendingPathComponent("feed.jsonl").path
        for (options, line) in [(["--events", path], "error: cannot write \(path): it is the same file as --input; write it somewhere else\n"),
                                (["--activity-feed", link], "error: cannot write \(link): it is the same file as --input; write it somewhere else\n"),
                                (["--activity-feed", feed, "--events", feed], "error: cannot write \(feed): it is the same file as --activity-feed; write it somewhere else\n")] {
            let result = library.run(["record", "--input", path, "--speed", "max"] + options)
            #expect(result.exitCode == 64)
            #expect(result.stderr == line)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: feed))
        #expect(library.recordingFolders == [])
    }

    @Test("a WAV whose header states more audio than the file holds is noted as such, and read for what it holds")
    func hugeStatedLength() throws {
        let library = try TemporaryLibrary()
        var bytes = WAVBytes.make(samples: try sevenPointOneSeconds(), rate: 16_000, channels: 1, encoding: .pcm16)
        bytes.replaceSubrange(40..<44, with: [0xF0, 0xFF, 0xFF, 0xFF])  // 0xFFFFFFF0 bytes: 37:16:57 at 32,000 bytes a second
        let path = library.url.appendingPathComponent("cut short.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = library.run("import", path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "note: \(path) has a WAV header that was never finished (it states 37:16:57 of audio, more than the file holds, "
            + "as a recorder that crashed leaves it); repaired the length while reading: 0:07 of audio follow the header\n")
        let imported = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(imported.map(\.recording.durationSeconds) == [7.1])
    }

    @Test("an RF64 file imports like the WAV it would be")
    func rf64Import() throws {
        let library = try TemporaryLibrary()
        let path = library.url.appendingPathComponent("long format.wav").path
        let writer = try SndFileWriter(path: path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_16), name: "rf64")
        try writer.write(AudioBuffer(samples: try sevenPointOneSeconds(), channels: 1))
        try writer.close()
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4), as: UTF8.self) == "RF64")
        let result = library.run("import", path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let imported = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(imported.map(\.recording.durationSeconds) == [7.1])
        #expect(imported.first?.segments.map(\.text) == ["go forward ten meters"])
    }

    @Test("stereo whose right channel is the left inverted is transcribed from the left, not as silence")
    func phaseInvertedStereo() throws {
        let library = try TemporaryLibrary()
        let speech = try sevenPointOneSeconds()
        let path = library.url.appendingPathComponent("inverted.wav").path
        try WAVBytes.make(samples: speech.flatMap { [$0, -$0] }, rate: 16_000, channels: 2, encoding: .pcm16)
            .write(to: URL(fileURLWithPath: path))
        let result = library.run("import", path, "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let imported = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        #expect(imported.first?.segments.map(\.text) == ["go forward ten meters"])
        #expect(imported.first?.recording.audio == AudioDescription(format: "wav", sampleRate: 16_000, channels: 2))
    }
}
