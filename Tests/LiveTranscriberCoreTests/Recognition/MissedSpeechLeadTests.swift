import Foundation
import LiveTranscriberCore
import Testing

@Suite("Missed speech lead: a live final hears speech just before its utterance that the detector missed")
struct MissedSpeechLeadTests {
    /// `count` samples of a sine at `level` RMS (1 kHz at 16 kHz: whole cycles in a 512-sample window).
    static func tone(_ count: Int, level: Float) -> [Float] {
        let peak = level * Float(2).squareRoot()
        return (0..<count).map { index -> Float in
            let phase: Double = 2 * Double.pi * 1_000 * Double(index) / 16_000
            return peak * Float(sin(phase))
        }
    }

    static let utterance = tone(16_000, level: 0.01)

    func lead(_ before: [Float]) -> Int {
        MissedSpeechLead.samples(before: before[...], utterance: Self.utterance[...], windowSamples: 512, sampleRate: 16_000)
    }

    @Test("audio before the utterance within 15 dB of its loudest window is a lead, from its earliest loud window")
    func loudAudioBeforeIsLead() {
        // Half a second of silence, then 30 windows (0.96 s) at 10 dB under the utterance: the lead is those windows.
        let before = [Float](repeating: 0, count: 8_000) + Self.tone(30 * 512, level: 0.00316)
        #expect(lead(before) == 30 * 512)
    }

    @Test("room tone 20 dB and more below the speech is no lead")
    func roomToneIsNoLead() {
        #expect(lead(Self.tone(32_000, level: 0.001)) == 0)
        #expect(lead([Float](repeating: 0, count: 32_000)) == 0)
    }

    @Test("the lead reaches across a quiet gap of a few windows, not across a longer one")
    func gaps() {
        let speech = Self.tone(5_120, level: 0.005)
        let shortGap = [Float](repeating: 0, count: 3 * 512)
        let longGap = [Float](repeating: 0, count: 10 * 512)
        #expect(lead(speech + shortGap + speech) == 2 * 5_120 + 3 * 512)
        #expect(lead(speech + longGap + speech) == 5_120)
    }

    @Test("silence right before the utterance, loud audio further back: no lead (a quarter second at most is crossed)")
    func silenceRightBefore() {
        #expect(lead(Self.tone(8_000, level: 0.005) + [Float](repeating: 0, count: 8_000)) == 0)
    }
}
