import Foundation
import LiveTranscriberCore
import Testing

@Suite("Scheduling interim decodes")
struct PartialDecodeScheduleTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("no interim decode before the utterance has 1.0 s of audio, nor between utterances")
    func waitsForAudio() {
        let schedule = PartialDecodeSchedule()
        #expect(!schedule.shouldStartInterim(now: start, utteranceSeconds: nil, decodeInFlight: false, finalsWaiting: false))
        #expect(!schedule.shouldStartInterim(now: start, utteranceSeconds: 0.9, decodeInFlight: false, finalsWaiting: false))
        #expect(schedule.shouldStartInterim(now: start, utteranceSeconds: 1.0, decodeInFlight: false, finalsWaiting: false))
    }

    @Test("at most one interim decode per second of wall time")
    func oncePerSecond() {
        var schedule = PartialDecodeSchedule()
        schedule.interimStarted(at: start)
        #expect(!schedule.shouldStartInterim(now: start.addingTimeInterval(0.99), utteranceSeconds: 5, decodeInFlight: false, finalsWaiting: false))
        #expect(schedule.shouldStartInterim(now: start.addingTimeInterval(1), utteranceSeconds: 5, decodeInFlight: false, finalsWaiting: false))
        schedule.utteranceEnded()
        #expect(schedule.lastStart == nil)
    }

    @Test("never while a decode runs or a final waits")
    func neverTwoDecodes() {
        let schedule = PartialDecodeSchedule()
        #expect(!schedule.shouldStartInterim(now: start, utteranceSeconds: 5, decodeInFlight: true, finalsWaiting: false))
        #expect(!schedule.shouldStartInterim(now: start, utteranceSeconds: 5, decodeInFlight: false, finalsWaiting: true))
    }

    @Test("an interim decode may produce about 6 tokens per second of audio, at least 8", arguments: [
        (0.5, 8), (1.0, 8), (1.5, 9), (10.0, 60), (15.0, 90),
    ])
    func tokenLimit(seconds: Double, tokens: Int) {
        #expect(PartialDecodeSchedule().tokenLimit(audioSeconds: seconds) == tokens)
    }

    @Test("a final decode may produce 16 tokens per second of audio, at least 32 and at most 224", arguments: [
        (0.5, 32), (2.0, 32), (4.0, 64), (7.1, 114), (15.0, 224),
    ])
    func finalTokenLimit(seconds: Double, tokens: Int) {
        #expect(PartialDecodeSchedule().tokenLimit(audioSeconds: seconds, interim: false) == tokens)
    }
}

@Suite("Choosing the default speech engine")
struct SpeechEngineDefaultTests {
    @Test("whisper when its model is installed, pocketsphinx otherwise")
    func defaultEngine() {
        #expect(SpeechEngineKind.defaultKind(whisperModelInstalled: true) == .whisper)
        #expect(SpeechEngineKind.defaultKind(whisperModelInstalled: false) == .pocketsphinx)
    }
}
