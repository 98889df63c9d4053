import LiveTranscriberCore
import Testing

@Suite("Sample rates audio files may state")
struct SampleRateRangeTests {
    @Test("1000 to 384000 Hz are taken; a rate outside gets one sentence naming the file, the rate and the range")
    func range() {
        #expect(AudioFormat.supportedSampleRates.contains(1_000))
        #expect(AudioFormat.supportedSampleRates.contains(384_000))
        #expect(!AudioFormat.supportedSampleRates.contains(999))
        #expect(!AudioFormat.supportedSampleRates.contains(384_001))
        #expect(UnsupportedSampleRate(path: "memo.m4a", rate: 1).description
            == "memo.m4a states a sample rate of 1 Hz; audio from 1000 to 384000 Hz can be read")
    }
}
