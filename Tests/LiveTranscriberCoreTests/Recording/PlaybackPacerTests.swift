import LiveTranscriberCore
import Testing

@Suite("Playback pacing")
struct PlaybackPacerTests {
    let start = ContinuousClock.now

    @Test("at real time the next block is due when the clock reaches the audio read; at 2x, at half of it")
    func realTime() {
        let pacer = PlaybackPacer(speed: 1, sampleRate: 16_000, start: start)
        #expect(pacer.wait(framesRecorded: 16_000, now: start + .milliseconds(250)) == 0.75)
        #expect(pacer.wait(framesRecorded: 16_000, now: start + .seconds(1)) == nil)
        let double = PlaybackPacer(speed: 2, sampleRate: 16_000, start: start)
        #expect(double.wait(framesRecorded: 16_000, now: start) == 0.5)
    }

    @Test("a pause, however long, is left out: no catch-up rush after resuming")
    func pauses() {
        var pacer = PlaybackPacer(speed: 1, sampleRate: 16_000, start: start)
        pacer.paused(true, at: start + .seconds(1))
        #expect(pacer.wait(framesRecorded: 32_000, now: start + .seconds(2)) == nil)  // paused: never waits
        pacer.paused(false, at: start + .seconds(61))
        #expect(pacer.wait(framesRecorded: 32_000, now: start + .seconds(61)) == 1)
    }

    @Test("no speed (live input or --speed max) never waits")
    func unpaced() {
        let pacer = PlaybackPacer(speed: nil, sampleRate: 16_000, start: start)
        #expect(pacer.wait(framesRecorded: 1_000_000, now: start) == nil)
    }
}
