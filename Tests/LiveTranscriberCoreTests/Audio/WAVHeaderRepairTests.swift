import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("WAVHeaderRepair")
struct WAVHeaderRepairTests {
    @Test("a 44-byte header with data size 0 and 96,000 bytes of 16 kHz mono 16-bit PCM is repaired to 3.000 s")
    func zeroDataSize() throws {
        let audio = WAVFixture.pcm(bytes: 96_000)
        let broken = WAVFixture.make(audio: audio, riffSize: 0, dataSize: 0)
        #expect(broken.count == 44 + 96_000)
        let (repaired, layout) = try WAVHeaderRepair.repair(broken)
        #expect(layout.durationSeconds == 3.0)
        #expect(layout.dataSize == 96_000)
        #expect(layout.dataOffset == 44)
        #expect(WAVFixture.readLE32(repaired, at: 4) == 96_036)
        #expect(WAVFixture.readLE32(repaired, at: 40) == 96_000)
        #expect(repaired == WAVFixture.make(audio: audio))
    }

    @Test("an unfinished header is described by what it stated: no length, or a length past the end of the file")
    func unfinishedHeaderStatement() throws {
        let audio = WAVFixture.pcm(bytes: 96_000)
        let (_, noLength) = try WAVHeaderRepair.repair(WAVFixture.make(audio: audio, riffSize: 0, dataSize: 0))
        #expect(noLength.declaredSeconds == nil)
        #expect(noLength.unfinishedHeaderStatement == "it states no length")
        let (_, placeholder) = try WAVHeaderRepair.repair(WAVFixture.make(audio: audio, dataSize: 0xFFFF_FFFF))
        #expect(placeholder.unfinishedHeaderStatement == "it states no length")
        // 0xFFFFFFF0 bytes at 32,000 bytes a second: 134,217.7275 s stated, 3 s there.
        let (_, huge) = try WAVHeaderRepair.repair(WAVFixture.make(audio: audio, dataSize: 0xFFFF_FFF0))
        #expect(huge.declaredSeconds == 134_217.7275)
        #expect(huge.durationSeconds == 3.0)
        #expect(huge.unfinishedHeaderStatement == "it states 37:16:57 of audio, more than the file holds")
    }

    @Test("a repaired layout measures the whole frames present: 96,000 bytes of 16 kHz mono 16-bit PCM are 48,000 frames, 3.000 s")
    func measurement() throws {
        let broken = WAVFixture.make(audio: WAVFixture.pcm(bytes: 96_000), riffSize: 0, dataSize: 0)
        let (_, layout) = try WAVHeaderRepair.repair(broken)
        #expect(layout.measurement == AudioFileMeasurement(sampleRate: 16_000, channels: 1, frames: 48_000))
        #expect(layout.measurement?.seconds == 3.0)
        var unusable = layout
        unusable.blockAlign = 0
        #expect(unusable.measurement == nil)
    }

    @Test("frames are data bytes over the block size only for uncompressed encodings (one whole-byte sample per channel)",
          arguments: [(1, 16, 2, true), (2, 16, 4, true), (2, 24, 6, true), (1, 32, 4, true), (2, 12, 4, true), (1, 8, 1, true),
                      (1, 4, 256, false), (2, 4, 512, false), (0, 16, 2, false), (1, 0, 0, false)])
    func uncompressed(channels: Int, bits: Int, blockAlign: Int, expected: Bool) throws {
        var layout = try WAVHeaderRepair.repair(WAVFixture.make(audio: WAVFixture.pcm(bytes: 32_000))).layout
        #expect(layout.isUncompressed)
        (layout.channels, layout.bitsPerSample, layout.blockAlign) = (channels, bits, blockAlign)
        #expect(layout.isUncompressed == expected)
    }

    @Test("placeholder and too-large sizes are rewritten from the bytes present",
          arguments: [(UInt32(0xFFFF_FFFF), UInt32(0xFFFF_FFFF)), (0, 0xFFFF_FFFF), (0xFFFF_FFFF, 0), (200_000, 150_000), (36, 0)])
    func placeholders(riff: UInt32, data: UInt32) throws {
        let audio = WAVFixture.pcm(bytes: 32_000)
        let (repaired, layout) = try WAVHeaderRepair.repair(WAVFixture.make(audio: audio, riffSize: riff, dataSize: data))
        #expect(repaired == WAVFixture.make(audio: audio))
        #expect(layout.durationSeconds == 1.0)
    }

    @Test("a stale header (the last update a second ago) grows to cover the PCM written since")
    func staleHeader() throws {
        let audio = WAVFixture.pcm(bytes: 64_000)
        let stale = WAVFixture.make(audio: audio, riffSize: 36 + 32_000, dataSize: 32_000)
        let (repaired, layout) = try WAVHeaderRepair.repair(stale)
        #expect(layout.dataSize == 64_000)
        #expect(repaired == WAVFixture.make(audio: audio))
    }

    @Test("a healthy file with a LIST chunk after data is never changed, byte for byte")
    func healthyWithTrailingChunk() throws {
        let info = Array("INFOINAM\u{5}\u{0}\u{0}\u{0}Demo\u{0}\u{0}".utf8)
        let file = WAVFixture.make(audio: WAVFixture.pcm(bytes: 3_200), chunksAfterData: [("LIST", info)])
        let plan = try WAVHeaderRepair.plan(fileSize: UInt64(file.count)) { offset, count in
            file.subdata(in: Int(offset)..<min(file.count, Int(offset) + count))
        }
        guard case .healthy(let layout) = plan else {
            Issue.record("expected healthy, got \(plan)")
            return
        }
        #expect(layout.dataSize == 3_200)
        #expect(try WAVHeaderRepair.repair(file).bytes == file)
    }

    @Test("a healthy file with an odd-sized chunk before data, and one after an odd data chunk, is unchanged")
    func oddChunksHealthy() throws {
        // 8-bit mono: an odd number of audio bytes needs a pad byte before the next chunk.
        let file = WAVFixture.make(
            sampleRate: 8_000, channels: 1, bitsPerSample: 8, audio: WAVFixture.pcm(bytes: 801),
            chunksBeforeData: [("junk", [1, 2, 3])], chunksAfterData: [("id3 ", [9, 9, 9, 9, 9])]
        )
        let (bytes, layout) = try WAVHeaderRepair.repair(file)
        #expect(bytes == file)
        #expect(layout.dataSize == 801)
        #expect(layout.dataOffset == 12 + 24 + 12 + 8)
    }

    @Test("an odd-sized data chunk left by a crash gets its pad byte")
    func oddDataGetsPad() throws {
        let audio = WAVFixture.pcm(bytes: 801)
        let broken = WAVFixture.make(sampleRate: 8_000, bitsPerSample: 8, audio: audio, riffSize: 0, dataSize: 0)
        let (repaired, layout) = try WAVHeaderRepair.repair(broken)
        #expect(layout.dataSize == 801)
        #expect(repaired.count == 44 + 801 + 1)
        #expect(repaired.last == 0)
        #expect(WAVFixture.readLE32(repaired, at: 4) == 36 + 801 + 1)
        #expect(WAVFixture.readLE32(repaired, at: 40) == 801)
    }

    @Test("a partial frame at the end (a torn write) is dropped: stereo 16-bit keeps whole 4-byte frames")
    func partialFrame() throws {
        let audio = WAVFixture.pcm(bytes: 4 * 48_000 + 3)
        let broken = WAVFixture.make(sampleRate: 48_000, channels: 2, audio: audio, riffSize: 0, dataSize: 0)
        let (repaired, layout) = try WAVHeaderRepair.repair(broken)
        #expect(layout.dataSize == 192_000)
        #expect(layout.durationSeconds == 1.0)
        #expect(repaired.count == 44 + 192_000)
    }

    @Test("an empty recording (header only, sizes right) is healthy with 0 s")
    func emptyHealthy() throws {
        let file = WAVFixture.make(audio: [])
        let (bytes, layout) = try WAVHeaderRepair.repair(file)
        #expect(bytes == file)
        #expect(layout.durationSeconds == 0)
    }

    @Test("non-WAV bytes and headers without fmt or data are errors, not traps",
          arguments: [
            (Data("OggS and some more bytes".utf8), WAVRepairError.notWAV),
            (Data(Array("RIFF".utf8) + WAVFixture.le32(4) + Array("WAVE".utf8)), WAVRepairError.missingFormat),
            (Data(), WAVRepairError.notWAV),
          ])
    func notWAV(bytes: Data, error: WAVRepairError) {
        #expect(throws: error) { try WAVHeaderRepair.repair(bytes) }
    }

    @Test("a header with fmt but no data chunk is missingData")
    func missingData() {
        let bytes = Data(Array("RIFF".utf8) + WAVFixture.le32(28) + Array("WAVE".utf8)
            + WAVFixture.chunk("fmt ", WAVFixture.le16(1) + WAVFixture.le16(1) + WAVFixture.le32(16_000) + WAVFixture.le32(32_000) + WAVFixture.le16(2) + WAVFixture.le16(16)))
        #expect(throws: WAVRepairError.missingData) { try WAVHeaderRepair.repair(bytes) }
    }
}
