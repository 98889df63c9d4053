import LiveTranscriberCore
import Testing

@Suite("Level meter")
struct LevelMeterTests {
    @Test("RMS levels map to a fraction linear in decibels from -60 dBFS to 0 dBFS", arguments: [
        (Float(1.0), Float(1.0)), (0.1, 2.0 / 3.0), (0.01, 1.0 / 3.0), (0.001, 0), (0.0001, 0), (0, 0), (-1, 0),
        (2.0, 1.0), (.nan, 0), (.infinity, 0),
    ])
    func fraction(rms: Float, expected: Float) {
        #expect(abs(LevelMeter.fraction(rms: rms) - expected) < 1e-5)
    }

    @Test("decibels are clamped to the meter's range")
    func decibels() {
        #expect(LevelMeter.decibels(rms: 1) == 0)
        #expect(abs(LevelMeter.decibels(rms: 0.5) - -6.0206) < 1e-3)
        #expect(LevelMeter.decibels(rms: 0) == -60)
    }
}
