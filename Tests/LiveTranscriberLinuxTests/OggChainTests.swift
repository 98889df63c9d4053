import CSndFile
import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// Chained Ogg files: `cat a.opus b.opus > c.opus`, as streamers and recorders write them.
@Suite("Chained Ogg Opus and Vorbis")
struct OggChainTests {
    /// A LibriVox clip (16 kHz mono) at `rate`, in `channels` identical channels.
    static func speech(_ id: String, rate: Int, channels: Int) throws -> [Float] {
        let reader = try SndFileReader(path: "\(TestData.librivox)/sense_and_sensibility_01_austen_64kb-\(id).wav")
        var mono: [Float] = []
        while let buffer = try reader.read(maxFrames: 65_536) { mono += buffer.samples }
        if rate != 16_000 {
            let resampler = try SoxrResampler(inputRate: 16_000, outputRate: rate)
            mono = try resampler.process(mono) + resampler.flush()
        }
        return mono.flatMap { Array(repeating: $0, count: channels) }
    }

    /// Writes a LibriVox clip with libsndfile in `libsndfileFormat` (Ogg Opus by default).
    static func write(_ id: String, to url: URL, rate: Int = 48_000, channels: Int = 1,
                      libsndfileFormat: Int32 = Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)) throws {
        let writer = try SndFileWriter(path: url.path, format: AudioFormat(sampleRate: rate, channels: channels),
                                       libsndfileFormat: libsndfileFormat, name: url.pathExtension)
        try writer.write(AudioBuffer(samples: speech(id, rate: rate, channels: channels), channels: channels))
        try writer.close()
    }

    /// `parts` one after the other in one file.
    static func chain(_ parts: [URL], to url: URL) throws {
        try parts.reduce(Data()) { $0 + (try Data(contentsOf: $1)) }.write(to: url)
    }

    /// LibriVox clips 0880 and 0930 as `a.opus` and `b.opus` in `home`, and `c.opus` for their
    /// chain (written only when `chained`).
    static func twoLinks(in home: TemporaryDirectory, chained: Bool = true) throws -> (a: URL, b: URL, c: URL) {
        let a = home.url.appendingPathComponent("a.opus"), b = home.url.appendingPathComponent("b.opus")
        let c = home.url.appendingPathComponent("c.opus")
        try write("0880", to: a)
        try write("0930", to: b)
        if chained { try chain([a, b], to: c) }
        return (a, b, c)
    }

    /// Every sample `source` gives, interleaved.
    static func readAll(_ source: any AudioSource) throws -> [Float] {
        var samples: [Float] = []
        while let buffer = try source.read(maxFrames: 3_000) { samples += buffer.samples }
        return samples
    }

    /// The mean of each frame's channels.
    static func mono(_ samples: [Float], channels: Int) -> [Float] {
        stride(from: 0, to: samples.count, by: channels).map { start in
            samples[start..<(start + channels)].reduce(0, +) * (1 / Float(channels))
        }
    }

    @Test("a chained Ogg Opus file reads as every link, sample for sample, where libsndfile stops after the first")
    func opusChain() throws {
        let home = try TemporaryDirectory()
        let (a, b, c) = try Self.twoLinks(in: home)

        let reader = try #require(try AudioFileReader.open(path: c.path) as? OpusFileReader)
        #expect(reader.chain == OggChainLayout(linkChannels: [1, 1]))
        #expect(reader.format == AudioFormat(sampleRate: 48_000, channels: 1))
        let first = try Self.readAll(OpusFileReader(path: a.path)), second = try Self.readAll(OpusFileReader(path: b.path))
        let whole = try Self.readAll(reader)
        #expect(whole.count == first.count + second.count)
        #expect(whole == first + second)
        #expect(reader.totalFrames == whole.count)
        #expect(try OpusFileReader(path: a.path).totalFrames == first.count)
        // The fault: libsndfile reads the chain as its first link alone.
        #expect(try Self.readAll(SndFileReader(path: c.path)).count == first.count)
        #expect(AudioFileReader.chainNote(path: c.path, shown: "c.opus") == nil)
    }

    @Test("links with different channel counts are all read, mixed down to mono, with a note; a repeated link (the same serial number) too")
    func opusChannels() throws {
        let home = try TemporaryDirectory()
        let a = home.url.appendingPathComponent("a.opus"), b = home.url.appendingPathComponent("b.opus")
        let c = home.url.appendingPathComponent("c.opus")
        try Self.write("0880", to: a, channels: 1)
        try Self.write("0930", to: b, channels: 2)
        try Self.chain([a, b, a], to: c)

        let reader = try OpusFileReader(path: c.path)
        #expect(reader.chain == OggChainLayout(linkChannels: [1, 2, 1]))
        #expect(reader.format == AudioFormat(sampleRate: 48_000, channels: 1))
        let first = try Self.readAll(OpusFileReader(path: a.path))
        let second = Self.mono(try Self.readAll(OpusFileReader(path: b.path)), channels: 2)
        #expect(try Self.readAll(reader) == first + second + first)
        // The third link repeats the first's serial number: libopusfile's search would take it for
        // the first and skip the second, so the file is read as a stream, with no stated length.
        #expect(reader.totalFrames == nil)
        #expect(AudioFileReader.chainNote(path: c.path, shown: "c.opus")
            == "note: c.opus is 3 chained Ogg Opus streams with 1, 2 and 1 channels; all of them are read, mixed down to mono")
    }

    @Test("a chained Ogg Vorbis file reads as every link; links at different rates are refused with one line")
    func vorbisChain() throws {
        let home = try TemporaryDirectory()
        let vorbis = Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        let a = home.url.appendingPathComponent("a.ogg"), b = home.url.appendingPathComponent("b.ogg")
        let c = home.url.appendingPathComponent("c.ogg")
        try Self.write("0880", to: a, rate: 16_000, libsndfileFormat: vorbis)
        try Self.write("0930", to: b, rate: 16_000, channels: 2, libsndfileFormat: vorbis)
        try Self.chain([a, b], to: c)

        let reader = try #require(try AudioFileReader.open(path: c.path) as? VorbisFileReader)
        #expect(reader.format == AudioFormat(sampleRate: 16_000, channels: 1))
        #expect(reader.chain == OggChainLayout(linkChannels: [1, 2]))
        let first = try Self.readAll(SndFileReader(path: a.path)), second = try Self.readAll(SndFileReader(path: b.path))
        let whole = try Self.readAll(reader)
        #expect(whole.count == first.count + second.count / 2)
        #expect(reader.totalFrames == whole.count)
        #expect(try Self.readAll(SndFileReader(path: c.path)).count == first.count)
        let repeated = home.url.appendingPathComponent("aba.ogg")
        try Self.chain([a, b, a], to: repeated)
        #expect(try Self.readAll(AudioFileReader.open(path: repeated.path)) == whole + first)

        let other = home.url.appendingPathComponent("b22.ogg"), mixed = home.url.appendingPathComponent("rates.ogg")
        try Self.write("0930", to: other, rate: 22_050, libsndfileFormat: vorbis)
        try Self.chain([a, other], to: mixed)
        #expect(throws: AudioFileError.readFailed(path: mixed.path, reason: "it is 2 chained Ogg Vorbis streams at different sample rates "
            + "(16000, 22050 Hz), which are not read as one recording; nothing of it is read")) {
            try AudioFileReader.open(path: mixed.path)
        }
    }

    /// `data` (an Ogg Vorbis file) with the rate in its identification header set to `rate` and the
    /// first page's CRC computed again (Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, over the
    /// page with its CRC field zeroed), so libvorbisfile reads the header as written.
    static func statingRate(_ rate: UInt32, _ data: Data) throws -> Data {
        var bytes = [UInt8](data)
        let identification = try #require(bytes.firstRange(of: Array("\u{01}vorbis".utf8)))
        let rateAt = identification.lowerBound + 12  // type, "vorbis", version (4), channels (1)
        for index in 0..<4 { bytes[rateAt + index] = UInt8((rate >> (8 * UInt32(index))) & 0xFF) }
        let segments = Int(bytes[26])
        let length = 27 + segments + bytes[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
        for index in 22..<26 { bytes[index] = 0 }
        var crc: UInt32 = 0
        for byte in bytes[0..<length] {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        for index in 0..<4 { bytes[22 + index] = UInt8((crc >> (8 * UInt32(index))) & 0xFF) }
        return Data(bytes)
    }

    @Test("an Ogg Vorbis file stating a rate outside 1000 to 384000 Hz is refused when opened (libsndfile reads its header first); 1000 Hz is read")
    func vorbisRateOutOfRange() throws {
        let home = try TemporaryDirectory()
        let a = home.url.appendingPathComponent("a.ogg")
        try Self.write("0880", to: a, rate: 16_000, libsndfileFormat: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS))
        let original = try Data(contentsOf: a)
        let low = home.url.appendingPathComponent("999.ogg"), edge = home.url.appendingPathComponent("1000.ogg")
        try Self.statingRate(999, original).write(to: low)
        try Self.statingRate(1_000, original).write(to: edge)
        #expect(throws: AudioFileError.unsupportedSampleRate(path: low.path, rate: 999)) {
            try AudioFileReader.open(path: low.path)
        }
        #expect(try AudioFileReader.open(path: edge.path).format == AudioFormat(sampleRate: 1_000, channels: 1))
        #expect(try AudioFileReader.open(path: a.path).format == AudioFormat(sampleRate: 16_000, channels: 1))
    }

    @Test("a link after the first whose headers are damaged is one clear error, never the first link alone")
    func damagedLink() throws {
        let home = try TemporaryDirectory()
        let (a, b, c) = try Self.twoLinks(in: home, chained: false)
        var damaged = try Data(contentsOf: b)
        let head = try #require(damaged.range(of: Data("OpusHead".utf8)))
        damaged[head.lowerBound] = UInt8(ascii: "X")  // no longer an Opus header
        try (Data(contentsOf: a) + damaged).write(to: c)
        #expect(throws: AudioFileError.readFailed(path: c.path, reason: "its first Ogg stream can be read but a stream chained after it "
            + "cannot (libopusfile: not Ogg Opus); nothing of it is read")) {
            try AudioFileReader.open(path: c.path)
        }
    }

    @Test("the local transcriber (retranscribe, serve's transcription API) hears every link of a chain")
    func localTranscriber() throws {
        let home = try TemporaryDirectory()
        let (_, _, c) = try Self.twoLinks(in: home)
        let segments = try LocalFileTranscriber(engine: .whisper).transcribe(audioFile: c, language: "en")
        #expect(WordErrorRate.normalizedWords(segments.map(\.text).joined(separator: " "))
            == WordErrorRate.normalizedWords("he was not an ill disposed young man he might even have been made amiable himself"))
    }

    @Test("the content digest covers every link of a chain; a single link keeps libsndfile's digest")
    func digest() throws {
        let home = try TemporaryDirectory()
        let (a, _, c) = try Self.twoLinks(in: home)
        var single = AudioContentDigest(sampleRate: 48_000, channels: 1, hasher: OpenSSLSHA256())
        single.add(samples: try Self.readAll(SndFileReader(path: a.path)))
        #expect(try AudioDigest.of(path: a.path) == single.finish())
        var chained = AudioContentDigest(sampleRate: 48_000, channels: 1, hasher: OpenSSLSHA256())
        chained.add(samples: try Self.readAll(OpusFileReader(path: c.path)))
        #expect(try AudioDigest.of(path: c.path) == chained.finish())
        #expect(try AudioDigest.of(path: c.path) != AudioDigest.of(path: a.path))
    }
}
