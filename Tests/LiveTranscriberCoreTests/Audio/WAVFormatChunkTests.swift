import Foundation
import LiveTranscriberCore
import Testing

@Suite("WAV fmt chunk")
struct WAVFormatChunkTests {
    /// A RIFF header as libsndfile's RF64 writer leaves it under 4 GiB: JUNK (ds64's place), then an
    /// extensible `fmt ` chunk of `channels`, 16 kHz, `bits` (valid bits the same), PCM subformat.
    static func header(riff: String = "RIFF", channels: UInt8, bits: UInt8, subformat: UInt8 = 1) -> [UInt8] {
        var bytes = Array(riff.utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("JUNK".utf8) + [24, 0, 0, 0] + [UInt8](repeating: 0, count: 24)
        let align = channels * bits / 8
        bytes += Array("fmt ".utf8) + [40, 0, 0, 0, 0xFE, 0xFF, channels, 0, 0x80, 0x3E, 0, 0]
        let byteRate = 16_000 * Int(align)
        bytes += [UInt8(byteRate & 0xFF), UInt8((byteRate >> 8) & 0xFF), UInt8((byteRate >> 16) & 0xFF), 0]
        bytes += [align, 0, bits, 0, 22, 0, bits, 0, 4, 0, 0, 0, subformat, 0]
        bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        return bytes + Array("data".utf8) + [0, 0, 0, 0]
    }

    @Test("mono 16-bit becomes a 16-byte PCM fmt chunk and a 16-byte JUNK chunk at the same place")
    func mono16() throws {
        let header = Self.header(channels: 1, bits: 16)
        let patch = try #require(WAVFormatChunk.plainPCMPatch(header: header))
        #expect(patch.offset == 44)
        #expect(patch.bytes == Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0x3E, 0, 0, 0x00, 0x7D, 0, 0, 2, 0, 16, 0]
            + Array("JUNK".utf8) + [16, 0, 0, 0] + [UInt8](repeating: 0, count: 16))
        #expect(patch.bytes.count == 48)  // "fmt " + size + 40 bytes: nothing after it moves
    }

    @Test("what needs the extensible form, or is not a RIFF WAV, is left alone", arguments: [
        header(channels: 4, bits: 16), header(channels: 1, bits: 24), header(channels: 2, bits: 16, subformat: 3),
        header(riff: "RF64", channels: 1, bits: 16), Array("RIFF".utf8),
    ])
    func leftAlone(header: [UInt8]) {
        #expect(WAVFormatChunk.plainPCMPatch(header: header) == nil)
    }
}
