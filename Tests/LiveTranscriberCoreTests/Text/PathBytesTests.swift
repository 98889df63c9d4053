import Foundation
import LiveTranscriberCore
import Testing

@Suite("Path bytes")
struct PathBytesTests {
    @Test("bytes that are not UTF-8 survive the round trip, are shown escaped and read as Latin-1 for names", arguments: [
        ([0x61, 0xE9, 0x2E, 0x77], "a\\xE9.w", "aé.w"),
        (Array("16 La Redécouverte".utf8), "16 La Redécouverte", "16 La Redécouverte"),
        ([0xC3], "\\xC3", "Ã"),                        // a sequence cut short
        ([0xE2, 0x82, 0x41], "\\xE2\\x82A", "â\u{82}A"),  // a three-byte sequence broken by ASCII
        ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80", "í\u{A0}\u{80}"),  // an encoded surrogate
        ([0xC0, 0xAF], "\\xC0\\xAF", "À¯"),            // an overlong slash
        ([0x61, 0x0A, 0xFF], "a\\u{A}\\xFF", "a\nÿ"),
        (Array("😀 ok".utf8) + [0x80], "😀 ok\\x80", "😀 ok\u{80}"),
    ] as [([UInt8], String, String)])
    func roundTrip(bytes: [UInt8], shown: String, readable: String) {
        let text = PathBytes.string(bytes)
        #expect(PathBytes.bytes(of: text) == bytes)
        #expect(PathBytes.shown(text) == shown)
        #expect(PathBytes.readable(text) == readable)
        #expect(PathBytes.hasRawBytes(text) == (String(bytes: bytes, encoding: .utf8) == nil))
    }
}
