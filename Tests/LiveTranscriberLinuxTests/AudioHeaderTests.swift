import CSndFile
import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// Headers a crash left unfinished: FLAC without its length, RF64 past 4 GiB, WAV with sizes 0.
@Suite("Unfinished audio headers")
struct AudioHeaderTests {
    typealias F = LibraryFixtures

    /// `frames` of a 440 Hz tone at 16 kHz mono written by libsndfile in `format`.
    func writeTone(to url: URL, frames: Int, libsndfileFormat: Int32, name: String) throws {
        let writer = try SndFileWriter(path: url.path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: libsndfileFormat, name: name)
        let samples = (0..<frames).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        try writer.write(AudioBuffer(samples: samples, channels: 1))
        try writer.close()
    }

    @Test("an Opus file cut off while written (a kill) holds all but at most 0.6 s of the 3 s written: pages end every 0.5 s (the crash soak lost up to 1.03 s with 1 s pages)")
    func opusKilledWhileWritten() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.opus")
        let writer = try SndFileWriter(path: file.path, format: AudioFormat(sampleRate: 16_000, channels: 1), fileFormat: .opus)
        // As the recorder writes: 0.1 s blocks, the header brought up to date each second.
        for block in 0..<30 {
            let samples = (0..<1_600).map { Float(0.3 * sin(2 * Double.pi * 440 * Double(block * 1_600 + $0) / 16_000)) }
            try writer.write(AudioBuffer(samples: samples, channels: 1))
            if block % 10 == 9 { try writer.updateHeader() }
        }
        // What a kill now leaves on disk: the bytes written so far, never closed.
        let killed = home.url.appendingPathComponent("killed.opus")
        try Data(contentsOf: file).write(to: killed)
        let measured = try #require(AudioFileMeasure.measure(killed))
        #expect(measured.seconds >= 2.4)
        #expect(measured.seconds <= 3.0)
        try writer.close()
    }

    @Test("a FLAC whose total-samples field a crash left at 0 is measured by decoding (40,000 frames, 2.5 s) and its header fixed")
    func flacWithoutLength() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.flac")
        try writeTone(to: file, frames: 40_000, libsndfileFormat: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), name: "flac")
        // Zero the 36-bit total-samples field, as an encoder killed before it finished leaves it.
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[21] &= 0xF0
        bytes[22...25] = [0, 0, 0, 0]
        try Data(bytes).write(to: file)
        #expect(try SndFileReader(path: file.path).totalFrames == nil)  // never 2^63 - 1

        let measured = try #require(AudioFileMeasure.measure(file))
        #expect(measured == AudioFileMeasure.Measurement(sampleRate: 16_000, channels: 1, frames: 40_000))
        #expect(measured.seconds == 2.5)
        #expect(try SndFileReader(path: file.path).totalFrames == 40_000)
        #expect(try SndFileAudioSlicer().info(of: file).frames == 40_000)
    }

    @Test("a saved mono or stereo 16-bit WAV has a plain PCM fmt chunk (tag 1, 16 bytes) that Python's wave module reads; 4 channels stay extensible",
          arguments: [(1, 1), (2, 1), (4, 0xFFFE)])
    func plainPCMFormat(channels: Int, tag: Int) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.wav")
        let writer = try SndFileWriter(path: file.path, format: AudioFormat(sampleRate: 16_000, channels: channels), fileFormat: .wav)
        try writer.write(AudioBuffer(samples: [Float](repeating: 0.25, count: 1600 * channels), channels: channels))
        try writer.close()
        let bytes = [UInt8](try Data(contentsOf: file))
        let fmt = try #require((12..<bytes.count - 4).first { bytes[$0..<$0 + 4] == [0x66, 0x6D, 0x74, 0x20] })
        #expect(Int(bytes[fmt + 8]) | Int(bytes[fmt + 9]) << 8 == tag)
        #expect(Int(bytes[fmt + 4]) == (tag == 1 ? 16 : 40))
        #expect(try SndFileReader(path: file.path).totalFrames == 1600)
        guard tag == 1 else { return }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import wave,sys; w=wave.open(sys.argv[1]); print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())", file.path]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(printed == "\(channels) 2 16000 1600\n")
    }

    @Test("a VBR MP3 whose Xing frame is gone is read to the end of its stream, not to the length its first frame suggests")
    func vbrMP3WithoutXing() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let wav = try SndFileReader(path: "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav")
        var samples: [Float] = []
        while let block = try wav.read(maxFrames: 16_000) { samples += block.samples }
        #expect(samples.count == 113_600)
        let mp3 = home.url.appendingPathComponent("vbr.mp3")
        let writer = try SndFileWriter(path: mp3.path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), name: "mp3")
        try writer.write(AudioBuffer(samples: samples, channels: 1))
        try writer.close()
        // The first frame holds the Xing header (VBR): 288 bytes at 64 kbit/s, 16 kHz, MPEG-2 layer III.
        var bytes = [UInt8](try Data(contentsOf: mp3))
        #expect(Array(bytes[0..<2]) == [0xFF, 0xF3])
        #expect(String(decoding: bytes[13..<17], as: UTF8.self) == "Xing")
        #expect(Array(bytes[288..<290]) == [0xFF, 0xF3])
        bytes.removeFirst(288)
        let stripped = home.url.appendingPathComponent("noxing.mp3")
        try Data(bytes).write(to: stripped)

        func frames(_ source: any AudioSource) throws -> Int {
            var count = 0
            while let block = try source.read(maxFrames: 4096) { count += block.frameCount }
            return count
        }
        #expect(try frames(SndFileReader(path: stripped.path)) == 89_856)  // libsndfile alone: 5.6 s
        let reader = try AudioFileReader.open(path: stripped.path)
        #expect(reader is MP3Reader)
        #expect(reader.totalFrames == 115_200)  // 200 frames of 576: 7.2 s, as decoded
        #expect(try frames(reader) == 115_200)
        #expect(AudioFileReader.lengthNote(path: stripped.path, shown: "noxing.mp3")
            == "note: noxing.mp3 states 0:05 of audio in its first frame but holds 0:07 (a VBR MP3 without a Xing header); all of it is read")
        #expect(AudioFileReader.lengthNote(path: mp3.path, shown: "vbr.mp3") == nil)
    }

    @Test("a WAV recording is stored as plain RIFF while under 4 GiB (libsndfile's RF64 downgrade)")
    func smallWAVStaysRIFF() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.wav")
        let writer = try SndFileWriter(path: file.path, format: AudioFormat(sampleRate: 16_000, channels: 1), fileFormat: .wav)
        try writer.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16_000), channels: 1))
        try writer.close()
        let bytes = try Data(contentsOf: file)
        #expect(String(decoding: bytes.prefix(4), as: UTF8.self) == "RIFF")
        #expect(try WAVHeaderRepair.repair(bytes).layout.durationSeconds == 1.0)
        #expect(AudioFileMeasure.measure(file)?.frames == 16_000)
    }

    @Test("an RF64 draft past 4 GiB (a sparse file) left by a crash is recovered with the length of its audio: 27,962.03 s")
    func rf64DraftPastFourGiB() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let store = try F.store(home)
        let stereo48k = AudioDescription(format: "wav", sampleRate: 48_000, channels: 2)
        do {
            let draft = try store.createDraft(id: "long", createdAt: F.t0, language: "en-US", audio: stereo48k, name: "All day")
            // The header as libsndfile left it at its last update (ds64 saying 4.5 GiB), then 5 GiB of
            // audio that the file system stores as a hole.
            let stale: UInt64 = 9 << 29
            try Data(WAVFixture.rf64Header(riff: 80 + stale - 8, data: stale, frames: stale / 4)).write(to: draft.audioFile)
            let handle = try FileHandle(forWritingTo: draft.audioFile)
            try handle.truncate(atOffset: 80 + (5 << 30))
            try handle.close()
        }
        let recovered = try F.store(home).recoverDrafts()
        #expect(recovered == [Recording(id: "long", name: "All day", createdAt: F.t0, durationSeconds: 1_342_177_280.0 / 48_000,
                                        language: "en-US", audio: stereo48k, recovered: true,
                                        audioDigest: "sha256:106879b6f4a72f1839decbdc1c02bdccd90d4bea058afb62f103fe206223234b")])
        let file = try store.audioFile(of: "long")
        var info = SF_INFO()
        let handle = try #require(sf_open(file.path, Int32(SFM_READ), &info))
        sf_close(handle)
        #expect(info.frames == 1_342_177_280)
        #expect(info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64))
    }

    @Test("a foreign WAV whose RIFF and data sizes are 0 is read like sox --ignore-length: every frame after the header")
    func zeroSizedWAVIsRead() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("crashed.wav")
        let original = WAVFixture.make(audio: [UInt8](WAVFixture.silence(bytes: 227_200)), riffSize: 0, dataSize: 0)
        try original.write(to: file)
        #expect(SndFileReader.unfinishedWAVHeader(at: file.path)?.durationSeconds == 7.1)
        let reader = try SndFileReader(path: file.path)
        #expect(reader.repairedHeader?.dataSize == 227_200)
        #expect(reader.totalFrames == 113_600)
        var frames = 0
        while let buffer = try reader.read(maxFrames: 4_096) { frames += buffer.frameCount }
        #expect(frames == 113_600)
        #expect(try Data(contentsOf: file) == original)  // the file is never changed
    }

    @Test("a WAV with a finished header is read directly, not repaired")
    func finishedWAVIsNotRepaired() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("fine.wav")
        try WAVFixture.make(audio: [UInt8](WAVFixture.silence(bytes: 32_000))).write(to: file)
        #expect(SndFileReader.unfinishedWAVHeader(at: file.path) == nil)
        #expect(try SndFileReader(path: file.path).repairedHeader == nil)
    }
}

