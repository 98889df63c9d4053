import Foundation
import LiveTranscriberCore
import Testing

@Suite("Subtitle timestamps")
struct SubtitleTimestampTests {
    @Test("rounds once to whole milliseconds, then splits; hours never wrap", arguments: [
        (0.0, "00:00:00,000"),
        (0.0004, "00:00:00,000"),
        (0.0005, "00:00:00,001"),
        (0.9994, "00:00:00,999"),
        (0.9995, "00:00:01,000"),
        (59.9995, "00:01:00,000"),
        (3599.9995, "01:00:00,000"),
        (3723.004, "01:02:03,004"),
        (86_400.0, "24:00:00,000"),
        (360_000.0, "100:00:00,000"),
    ])
    func srt(seconds: Double, expected: String) {
        #expect(SubtitleTimestamp.srt(seconds) == expected)
        #expect(SubtitleTimestamp.vtt(seconds) == expected.replacingOccurrences(of: ",", with: "."))
    }

    @Test("NaN, negative and infinite times never trap", arguments: [
        (Double.nan, "00:00:00.000"),
        (-1.0, "00:00:00.000"),
        (-Double.infinity, "00:00:00.000"),
    ])
    func invalid(seconds: Double, expected: String) {
        #expect(SubtitleTimestamp.vtt(seconds) == expected)
    }

    @Test("positive infinity formats as a large time instead of trapping")
    func infinity() {
        #expect(SubtitleTimestamp.milliseconds(.infinity) > 0)
        #expect(SubtitleTimestamp.srt(.infinity).hasSuffix(",000"))
    }

    @Test("plain clock truncates after the single rounding", arguments: [
        (0.9995, "00:00:01"), (61.4, "00:01:01"), (360_000.0, "100:00:00"),
    ])
    func clock(seconds: Double, expected: String) {
        #expect(SubtitleTimestamp.clock(seconds) == expected)
    }
}
