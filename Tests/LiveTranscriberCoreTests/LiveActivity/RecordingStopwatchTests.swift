import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Recording stopwatch")
    struct RecordingStopwatchTests {
        let t0 = Fixture.t0

        @Test("record 90 s, pause 30 s, resume: at 210 s wall time the timer reads 3:00")
        func pauseExcluded() {
            var watch = RecordingStopwatch()
            watch.start(at: t0)
            watch.pause(at: t0 + 90)
            #expect(watch.elapsed(at: t0 + 100) == 90)
            watch.resume(at: t0 + 120)
            #expect(watch.elapsed(at: t0 + 210) == 180)
            #expect(watch.timerReferenceDate(at: t0 + 210) == t0 + 30)
            #expect(ElapsedTimeFormat.clock(watch.elapsed(at: t0 + 210)) == "3:00")
            #expect(ElapsedTimeFormat.elapsed(since: watch.timerReferenceDate(at: t0 + 210), now: t0 + 210) == 180)
        }

        @Test("the reference date does not move between updates while running")
        func referenceStable() {
            var watch = RecordingStopwatch()
            watch.start(at: t0)
            watch.pause(at: t0 + 90)
            watch.resume(at: t0 + 120)
            let dates = [t0 + 121, t0 + 150, t0 + 209.5, t0 + 4000].map { watch.timerReferenceDate(at: $0) }
            #expect(dates == Array(repeating: t0 + 30, count: 4))
        }

        @Test("a clock set back never gives negative elapsed time")
        func clockBack() {
            var watch = RecordingStopwatch()
            watch.start(at: t0)
            #expect(watch.elapsed(at: t0 - 50) == 0)
            watch.pause(at: t0 - 50)
            #expect(watch.elapsed(at: t0) == 0)
            #expect(!watch.isRunning)
        }

        @Test("starting twice keeps the first start")
        func startTwice() {
            var watch = RecordingStopwatch()
            watch.start(at: t0)
            watch.start(at: t0 + 60)
            #expect(watch.elapsed(at: t0 + 100) == 100)
        }
    }
}
