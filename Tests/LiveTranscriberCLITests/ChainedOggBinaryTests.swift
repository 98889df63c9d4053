import CSndFile
import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

@Suite("chained Ogg files through the built binary", .serialized)
struct ChainedOggBinaryTests {
    /// A LibriVox clip written as Ogg Opus at 48 kHz mono by libsndfile (as `record --format opus` writes it).
    static func writeOpus(_ id: String, to url: URL) throws {
        let reader = try SndFileReader(path: "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-\(id).wav")
        var samples: [Float] = []
        while let buffer = try reader.read(maxFrames: 65_536) { samples += buffer.samples }
        let resampler = try SoxrResampler(inputRate: 16_000, outputRate: 48_000)
        let writer = try SndFileWriter(path: url.path, format: AudioFormat(sampleRate: 48_000, channels: 1), fileFormat: .opus)
        try writer.write(AudioBuffer(samples: try resampler.process(samples) + resampler.flush(), channels: 1))
        try writer.close()
    }

    @Test("import of two Ogg Opus files one after the other (cat a.opus b.opus) stores every sample of both and the words of both")
    func chainedOpus() throws {
        let library = try TemporaryLibrary()
        let a = library.url.appendingPathComponent("a.opus"), b = library.url.appendingPathComponent("b.opus")
        let c = library.url.appendingPathComponent("c.opus")
        try Self.writeOpus("0880", to: a)
        try Self.writeOpus("0930", to: b)
        try (Data(contentsOf: a) + Data(contentsOf: b)).write(to: c)
        let expectedFrames = try #require(try OpusFileReader(path: a.path).totalFrames) + #require(try OpusFileReader(path: b.path).totalFrames)

        let result = try runBinary(["import", "--engine", "whisper", "--language", "en", "--json", c.path], environment: library.environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let saved = try #require(try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8)).first)
        #expect(WordErrorRate.normalizedWords(saved.segments.map(\.text).joined(separator: " "))
            == WordErrorRate.normalizedWords("he was not an ill disposed young man he might even have been made amiable himself"))
        #expect(saved.recording.audio == AudioDescription(format: "wav", sampleRate: 48_000, channels: 1))
        // The stored audio holds every sample of both links: exactly their sum.
        let stored = try SndFileReader(path: library.url.appendingPathComponent("recordings/\(saved.recording.id)/audio.wav").path)
        var frames = 0
        while let buffer = try stored.read(maxFrames: 65_536) { frames += buffer.frameCount }
        #expect(frames == expectedFrames)
        #expect(saved.recording.durationSeconds == Double(expectedFrames) / 48_000)

        // The first link alone is not taken for the chain (the content digest covers both links).
        let first = try runBinary(["import", "--engine", "pocketsphinx", a.path], environment: library.environment)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stderr == "")
    }

    @Test("a chained Ogg Opus file whose second link is damaged: one line, exit 1, nothing saved")
    func damagedLink() throws {
        let library = try TemporaryLibrary()
        let a = library.url.appendingPathComponent("a.opus"), b = library.url.appendingPathComponent("b.opus")
        let c = library.url.appendingPathComponent("c.opus")
        try Self.writeOpus("0880", to: a)
        try Self.writeOpus("0930", to: b)
        var damaged = try Data(contentsOf: b)
        let head = try #require(damaged.range(of: Data("OpusHead".utf8)))
        damaged[head.lowerBound] = UInt8(ascii: "X")
        try (Data(contentsOf: a) + damaged).write(to: c)
        let result = try runBinary(["import", "--engine", "pocketsphinx", c.path], environment: library.environment)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "error: reading \(c.path) failed: its first Ogg stream can be read but a stream chained after it cannot "
            + "(libopusfile: not Ogg Opus); nothing of it is read\n1 of 1 file could not be imported.\n")
        #expect(library.recordingFolders.isEmpty)
        #expect(library.draftFolders.isEmpty)
    }
}
