import Foundation

/// WAV files built byte by byte for tests, including the broken headers a crash leaves.
public enum WAVFixture {
    /// A RIFF/WAVE file: "RIFF" riffSize "WAVE", a 16-byte PCM `fmt ` chunk, `chunksBeforeData`,
    /// "data" dataSize, `audio`, then `chunksAfterData` (each padded to an even size).
    ///
    /// - Parameters:
    ///   - riffSize, dataSize: The sizes to write; nil for the correct ones.
    public static func make(
        sampleRate: Int = 16_000, channels: Int = 1, bitsPerSample: Int = 16, audio: some Collection<UInt8>,
        riffSize: UInt32? = nil, dataSize: UInt32? = nil,
        chunksBeforeData: [(String, [UInt8])] = [], chunksAfterData: [(String, [UInt8])] = []
    ) -> Data {
        let blockAlign = channels * bitsPerSample / 8
        var fmt: [UInt8] = []
        fmt += le16(1) + le16(UInt16(channels)) + le32(UInt32(sampleRate))
        fmt += le32(UInt32(sampleRate * blockAlign)) + le16(UInt16(blockAlign)) + le16(UInt16(bitsPerSample))
        var body = Data(Array("WAVE".utf8) + chunk("fmt ", fmt))
        for (id, bytes) in chunksBeforeData { body.append(contentsOf: chunk(id, bytes)) }
        body.append(contentsOf: Array("data".utf8) + le32(dataSize ?? UInt32(audio.count)))
        body.append(contentsOf: audio)
        if audio.count % 2 == 1, !chunksAfterData.isEmpty { body.append(0) }
        for (id, bytes) in chunksAfterData { body.append(contentsOf: chunk(id, bytes)) }
        return Data(Array("RIFF".utf8) + le32(riffSize ?? UInt32(body.count))) + body
    }

    /// `count` bytes of 16-bit PCM: a ramp, so every byte position is distinguishable.
    public static func pcm(bytes count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
    }

    /// `count` bytes of constant PCM, built fast (for long fixtures whose content does not matter).
    public static func silence(bytes count: Int) -> Data {
        Data(repeating: 0, count: count)
    }

    /// A chunk: id, little-endian size, bytes, and a pad byte after an odd size.
    public static func chunk(_ id: String, _ bytes: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(UInt32(bytes.count)) + bytes + (bytes.count % 2 == 1 ? [0] : [])
    }

    public static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    public static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// The little-endian UInt32 at `offset` of `data`.
    public static func readLE32(_ data: Data, at offset: Int) -> UInt32 {
        let bytes = [UInt8](data)
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// An RF64 header as libsndfile writes it (`ds64` right after `WAVE`), 80 bytes, for 48 kHz stereo 16-bit.
    public static func rf64Header(riff: UInt64, data: UInt64, frames: UInt64) -> [UInt8] {
        func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }
        let ds64 = le64(riff) + le64(data) + le64(frames) + le32(0)
        let fmt = le16(1) + le16(2) + le32(48_000) + le32(192_000) + le16(4) + le16(16)
        return Array("RF64".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8) + chunk("ds64", ds64)
            + chunk("fmt ", fmt) + Array("data".utf8) + le32(0xFFFF_FFFF)
    }
}
