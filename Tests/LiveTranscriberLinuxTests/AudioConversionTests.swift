import Foundation
import LiveTranscriberTestSupport
import LiveTranscriberCore
import Testing
@testable import LiveTranscriberLinux

/// A fresh temporary folder, removed by the caller with `removeTemporaryFolder`.
func makeTemporaryFolder() throws -> URL {
    let url = try TestFolders.make("lt-tests")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func sine(frequency: Double, seconds: Double, rate: Int, amplitude: Float = 0.5) -> [Float] {
    (0..<Int(seconds * Double(rate))).map { amplitude * Float(sin(2 * .pi * frequency * Double($0) / Double(rate))) }
}

@Suite("Resampling and downmix")
struct AudioConversionTests {
    @Test("10.000 s at 48 kHz resamples to exactly 160,000 frames at 16 kHz, in blocks or at once",
          arguments: [4_800, 1_000, 480_000])
    func exactFrameCount(blockSize: Int) throws {
        let resampler = try SoxrResampler(inputRate: 48_000, outputRate: 16_000)
        let input = sine(frequency: 440, seconds: 10, rate: 48_000)
        var output = 0
        for start in stride(from: 0, to: input.count, by: blockSize) {
            output += try resampler.process(Array(input[start..<min(input.count, start + blockSize)])).count
        }
        output += try resampler.flush().count
        #expect(output == 160_000)
    }

    @Test("44.1 kHz resamples to the nearest whole 16 kHz frame count")
    func cdRate() throws {
        let resampler = try SoxrResampler(inputRate: 44_100, outputRate: 16_000)
        var output = try resampler.process(sine(frequency: 440, seconds: 3, rate: 44_100)).count
        output += try resampler.flush().count
        #expect(output == 48_000)
    }

    @Test("a stereo file with a tone on the left channel only gives 1.0 s of mono at 16 kHz")
    func stereoLeftOnly() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("left.wav").path
        let left = sine(frequency: 1_000, seconds: 1, rate: 48_000, amplitude: 0.8)
        var interleaved = [Float](repeating: 0, count: left.count * 2)
        for (index, sample) in left.enumerated() { interleaved[index * 2] = sample }
        let writer = try SndFileWriter(path: path, format: AudioFormat(sampleRate: 48_000, channels: 2), fileFormat: .wav)
        try writer.write(AudioBuffer(samples: interleaved, channels: 2))
        try writer.close()

        let reader = try SndFileReader(path: path)
        #expect(reader.format == AudioFormat(sampleRate: 48_000, channels: 2))
        #expect(reader.totalFrames == 48_000)
        let resampler = try SoxrResampler(inputRate: 48_000, outputRate: 16_000)
        var mono: [Float] = []
        while let buffer = try reader.read(maxFrames: 4_800) {
            mono += try resampler.process(AudioMath.downmixToMono(buffer))
        }
        mono += try resampler.flush()
        #expect(mono.count == 16_000)
        // Half the left channel's level: the right channel contributes silence.
        let level = AudioMath.rmsLevel(Array(mono[2_000..<14_000]))
        #expect(abs(level - 0.4 * 0.7071) < 0.01)
    }

    @Test("16 kHz input needs no resampler and reaches the recognizer sample for sample")
    func noResampleAt16k() throws {
        let pipeline = try LocalTranscription.makePipeline(for: AudioFormat(sampleRate: 16_000, channels: 1))
        _ = try pipeline.process(AudioBuffer(samples: [Float](repeating: 0, count: 16_050), channels: 1))
        #expect(pipeline.samplesRecognized == 16_000)
        _ = try pipeline.finish()
        #expect(pipeline.samplesRecognized == 16_050)
    }
}

@Suite("Audio files")
struct AudioFileTests {
    @Test("a missing file, a folder and a text file each give their own clear error")
    func badInputs() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: AudioFileError.notFound(path: "/nonexistent.wav")) { try SndFileReader(path: "/nonexistent.wav") }
        #expect(throws: AudioFileError.unreadable(path: folder.path, reason: "it is a folder")) { try SndFileReader(path: folder.path) }
        let text = folder.appendingPathComponent("notes.wav")
        try Data("this is not audio at all, just some text".utf8).write(to: text)
        #expect {
            try SndFileReader(path: text.path)
        } throws: { error in
            guard case AudioFileError.unsupportedFormat(let path, _) = error else { return false }
            return path == text.path
        }
    }

    @Test("stereo stays stereo through the writer, in WAV, FLAC and Opus",
          arguments: [RecordingAudioFormat.wav, .flac, .opus])
    func roundTrip(format: RecordingAudioFormat) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("audio.\(format.fileExtension)").path
        let tone = sine(frequency: 440, seconds: 0.5, rate: 48_000)
        let writer = try SndFileWriter(path: path, format: AudioFormat(sampleRate: 48_000, channels: 2), fileFormat: format)
        try writer.write(AudioBuffer(samples: zip(tone, tone).flatMap { [$0, $1] }, channels: 2))
        try writer.updateHeader()
        try writer.close()
        let reader = try SndFileReader(path: path)
        #expect(reader.format == AudioFormat(sampleRate: 48_000, channels: 2))
        var frames = 0
        while let buffer = try reader.read(maxFrames: 4_096) { frames += buffer.frameCount }
        #expect(frames == 24_000)
    }

    @Test("raw PCM from a file reads as 16-bit little-endian frames and drops a cut-off last frame")
    func rawPCM() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("audio.raw").path
        var bytes = Data()
        for value: Int16 in [0, 16_384, -16_384, 32_767] { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        bytes.append(0x01)  // half a sample
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try RawPCMReader(path: path, sampleRate: 8_000, channels: 2)
        let buffer = try #require(try reader.read(maxFrames: 10))
        #expect(buffer.frameCount == 2)
        #expect(buffer.samples == [0, 0.5, -0.5, Float(32_767) / 32_768])
        #expect(try reader.read(maxFrames: 10) == nil)
    }
}
