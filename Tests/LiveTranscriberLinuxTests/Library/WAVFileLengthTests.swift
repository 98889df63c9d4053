import CSndFile
import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux
@testable import LiveTranscriberStore

/// The store reads WAV and RF64 lengths itself, from chunk headers, so the library-only program
/// applies the duration rule without libsndfile.
@Suite("WAVFileLength")
struct WAVFileLengthTests {
    typealias F = LibraryFixtures

    /// An audio reader that reads nothing, as the library-only program's (`NoAudioReader`).
    struct NoAudio: AudioFileMeasuring {
        func measure(_ url: URL) -> AudioFileMeasurement? { nil }
        func statedSeconds(_ url: URL) -> Double? { nil }
        func contentDigest(_ url: URL) -> String? { nil }
    }

    static let threeSeconds = WAVFixture.pcm(bytes: 96_000)  // 16 kHz mono 16-bit

    @Test("WAV headers give the seconds libsndfile states: healthy, a LIST chunk after data, sizes past the end or placeholders, stereo 24-bit", arguments: [
        ("healthy", WAVFixture.make(audio: threeSeconds), 3.0),
        ("LIST after data", WAVFixture.make(audio: threeSeconds, chunksAfterData: [("LIST", Array("INFOISFT".utf8))]), 3.0),
        ("a chunk before data", WAVFixture.make(audio: threeSeconds, chunksBeforeData: [("JUNK", [0, 0, 0, 0])]), 3.0),
        ("data size past the end", WAVFixture.make(audio: threeSeconds, dataSize: 200_000), 3.0),
        ("data size 0xFFFFFFFF", WAVFixture.make(audio: threeSeconds, dataSize: 0xFFFF_FFFF), 3.0),
        ("RIFF size 0xFFFFFFFF", WAVFixture.make(audio: threeSeconds, riffSize: 0xFFFF_FFFF), 3.0),
        ("48 kHz stereo 24-bit", WAVFixture.make(sampleRate: 48_000, channels: 2, bitsPerSample: 24, audio: WAVFixture.pcm(bytes: 144_000)), 0.5),
        ("a torn last frame", WAVFixture.make(audio: WAVFixture.pcm(bytes: 32_001), dataSize: 32_001), 1.0),
    ])
    func agreesWithLibsndfile(name: String, bytes: Data, seconds: Double) throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.wav")
        try bytes.write(to: file)
        #expect(WAVFileLength.seconds(of: file) == seconds, "\(name)")
        #expect(AudioFileMeasure.statedSeconds(file) == seconds, "\(name)")
        #expect(try Data(contentsOf: file) == bytes, "\(name): the file is not changed")
    }

    @Test("a header that says 0 with audio after it (a crash) counts the audio present; an empty data chunk is 0 s")
    func unfinishedAndEmpty() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let unfinished = home.url.appendingPathComponent("unfinished.wav")
        try WAVFixture.make(audio: Self.threeSeconds, riffSize: 0, dataSize: 0).write(to: unfinished)
        #expect(WAVFileLength.seconds(of: unfinished) == 3.0)
        let empty = home.url.appendingPathComponent("empty.wav")
        try WAVFixture.make(audio: []).write(to: empty)
        #expect(WAVFileLength.seconds(of: empty) == 0)
    }

    @Test("an RF64 file past 4 GiB (sparse) is 27,962.03 s from its ds64 chunk, as libsndfile states")
    func rf64() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("audio.wav")
        let data: UInt64 = 5 << 30
        try Data(WAVFixture.rf64Header(riff: 80 + data - 8, data: data, frames: data / 4)).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 80 + data)
        try handle.close()
        #expect(WAVFileLength.seconds(of: file) == 1_342_177_280.0 / 48_000)
        #expect(AudioFileMeasure.statedSeconds(file) == 1_342_177_280.0 / 48_000)
    }

    @Test("only chunk headers are read: 68 bytes of a 5 GiB RF64 file, 44 of a 10-minute WAV")
    func readsOnlyHeaders() throws {
        let rf64Data: UInt64 = 5 << 30
        let rf64 = WAVFixture.rf64Header(riff: 80 + rf64Data - 8, data: rf64Data, frames: rf64Data / 4)
        let wav = [UInt8](WAVFixture.make(audio: [], dataSize: 19_200_000))
        for (header, size, bytesRead, seconds) in [(rf64, 80 + rf64Data, 68, 27_962.026_666_666_667), (wav, 44 + 19_200_000, 44, 600.0)] {
            var requested = 0
            let answer = WAVFileLength.seconds(fileSize: size) { offset, count in
                requested += count
                // The header's bytes; anything past them is audio, which must never be asked for.
                let start = Int(min(offset, UInt64(header.count)))
                return Data(header[start..<min(header.count, start + count)])
            }
            #expect(answer == seconds)
            #expect(requested == bytesRead)
        }
    }

    @Test("not WAV, a WAV without its data chunk, and ADPCM WAV are left to the platform's reader (nil)")
    func leftToTheReader() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let text = home.url.appendingPathComponent("notes.wav")
        try Data("not audio at all".utf8).write(to: text)
        #expect(WAVFileLength.seconds(of: text) == nil)
        #expect(WAVFileLength.seconds(of: home.url.appendingPathComponent("missing.wav")) == nil)
        let noData = home.url.appendingPathComponent("nodata.wav")
        let fmt = WAVFixture.le16(1) + WAVFixture.le16(1) + WAVFixture.le32(16_000) + WAVFixture.le32(32_000) + WAVFixture.le16(2) + WAVFixture.le16(16)
        try Data(Array("RIFF".utf8) + WAVFixture.le32(28) + Array("WAVE".utf8) + WAVFixture.chunk("fmt ", fmt)).write(to: noData)
        #expect(WAVFileLength.seconds(of: noData) == nil)
        // IMA ADPCM (tag 0x11): 4-bit samples in 256-byte blocks of 505 frames; libsndfile knows its length, the store does not.
        let adpcm = home.url.appendingPathComponent("adpcm.wav")
        let writer = try SndFileWriter(path: adpcm.path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: Int32(SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM), name: "ima adpcm")
        try writer.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16_160), channels: 1))
        try writer.close()
        #expect(WAVFileLength.seconds(of: adpcm) == nil)
        #expect(AudioFileMeasure.statedSeconds(adpcm) == 16_272.0 / 16_000)  // padded to whole blocks
        let flac = home.url.appendingPathComponent("audio.flac")
        let flacWriter = try SndFileWriter(path: flac.path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                           libsndfileFormat: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), name: "flac")
        try flacWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16_000), channels: 1))
        try flacWriter.close()
        #expect(WAVFileLength.seconds(of: flac) == nil)
    }

    @Test("a store with no audio reader corrects a WAV recording's duration from the header, and leaves a FLAC one as stated")
    func storeWithoutAudioReader() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try F.save(try F.store(home), id: "wav", name: "WAV", seconds: 3)
        try F.save(try F.store(home), id: "flac", createdAt: F.t0.addingTimeInterval(60), name: "FLAC", seconds: 1)
        // Recording "flac" gets a FLAC file of 1 s, and both get a duration of a day in metadata.json.
        let flacFolder = home.url.appendingPathComponent("recordings/flac")
        try FileManager.default.removeItem(at: flacFolder.appendingPathComponent("audio.wav"))
        let writer = try SndFileWriter(path: flacFolder.appendingPathComponent("audio.flac").path, format: AudioFormat(sampleRate: 16_000, channels: 1),
                                       libsndfileFormat: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), name: "flac")
        try writer.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16_000), channels: 1))
        try writer.close()
        let light = try LibraryStore(directory: home.url, timeZone: F.utc, audioMeasure: NoAudio())
        for id in ["wav", "flac"] {  // as an older version wrote them, folder and index
            let file = home.url.appendingPathComponent("recordings/\(id)/metadata.json")
            var recording = try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: file))
            recording.durationSeconds = 86_400
            if id == "flac" { recording.audio.format = "flac" }
            try JSONEncoder.liveTranscriber.encode(recording).write(to: file)
            try light.keeper.current.upsert(recording, segments: [])
        }
        #expect(try light.resolve("wav").durationSeconds == 3)
        #expect(try light.resolve("flac").durationSeconds == 86_400)
        #expect(try light.rename("flac", to: "Still FLAC").durationSeconds == 86_400)
        // With libsndfile, the FLAC one is corrected too.
        #expect(try F.store(home).resolve("flac").durationSeconds == 1)
    }
}
