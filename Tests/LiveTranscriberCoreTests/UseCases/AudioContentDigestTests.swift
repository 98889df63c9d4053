import Foundation
import LiveTranscriberCore
import Testing

/// The digest rule's bytes, the same on every platform: the Linux adapter's golden digest
/// (`LibraryCommandsTests`) pins the hash of these bytes, the iPhone's CryptoKit hasher is fed
/// the same ones.
@Suite("Audio content digest")
struct AudioContentDigestTests {
    /// A hasher that keeps the bytes it is given and answers a fixed digest.
    struct RecordingHasher: SHA256Hashing {
        final class Log { var bytes: [UInt8] = [] }
        let log = Log()
        mutating func update(_ bytes: UnsafeRawBufferPointer) { log.bytes += bytes }
        mutating func finalize() -> [UInt8] { [0x00, 0x0f, 0xa0, 0xff] }
    }

    @Test("the header names rate and channels, then each sample as 16-bit little-endian: x × 32768 rounded and clamped; written sha256:<hex>")
    func bytes() {
        let hasher = RecordingHasher()
        var digest = AudioContentDigest(sampleRate: 44_100, channels: 2, hasher: hasher)
        digest.add(samples: [0.5, -1.0, 1.0, 0.000015, -0.000016])
        digest.add(-0.25)
        digest.add(int16Samples: [Int16(258), Int16(-2)])
        let text = digest.finish()
        #expect(text == "sha256:000fa0ff")
        #expect(hasher.log.bytes == Array("rate=44100;channels=2;".utf8) + [
            0x00, 0x40,  // 0.5 → 16384
            0x00, 0x80,  // -1.0 → -32768
            0xff, 0x7f,  // 1.0 → 32768, clamped to 32767
            0x00, 0x00,  // 0.000015 × 32768 = 0.49 → 0
            0xff, 0xff,  // -0.000016 × 32768 = -0.52 → -1
            0x00, 0xe0,  // -0.25 → -8192
            0x02, 0x01,  // 258 as stored
            0xfe, 0xff,  // -2 as stored
        ])
    }

    @Test("16-bit bytes laid out as the rule hashes them go in as they are, after the samples before them")
    func storedBytes() {
        let hasher = RecordingHasher()
        var digest = AudioContentDigest(sampleRate: 16_000, channels: 1, hasher: hasher)
        digest.add(0.5)
        [UInt8](arrayLiteral: 0x34, 0x12).withUnsafeBytes { digest.add(littleEndianInt16: $0) }
        _ = digest.finish()
        #expect(hasher.log.bytes == Array("rate=16000;channels=1;".utf8) + [0x00, 0x40, 0x34, 0x12])
    }
}
