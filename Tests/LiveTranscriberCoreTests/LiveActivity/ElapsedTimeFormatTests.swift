import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Elapsed time formats")
    struct ElapsedTimeFormatTests {
        @Test("fixed elapsed text reads like the system timer", arguments: [
            (0.0, "0:00"), (9, "0:09"), (59.9, "0:59"), (60, "1:00"), (90, "1:30"), (3599, "59:59"),
            (3600, "1:00:00"), (3909, "1:05:09"), (36000, "10:00:00"), (360_000, "100:00:00"),
        ])
        func clock(seconds: Double, expected: String) {
            #expect(ElapsedTimeFormat.clock(seconds) == expected)
        }

        @Test("compact elapsed time stays short past one hour", arguments: [
            (9.0, "0:09"), (309, "5:09"), (3599, "59:59"), (3600, "1h00"), (3909, "1h05"), (36000, "10h00"), (45296, "12h34"),
        ])
        func compact(seconds: Double, expected: String) {
            #expect(ElapsedTimeFormat.compact(seconds) == expected)
        }

        @Test("negative, NaN and infinite inputs never trap", arguments: [
            (-1.0, "0:00"), (-.infinity, "0:00"), (.nan, "0:00"), (.infinity, "99999:59:59"), (1e300, "99999:59:59"),
        ])
        func garbage(seconds: Double, expected: String) {
            #expect(ElapsedTimeFormat.clock(seconds) == expected)
            #expect(!ElapsedTimeFormat.compact(seconds).isEmpty)
        }

        @Test("a reference date in the future reads 0:00")
        func futureReference() {
            let now = Fixture.t0
            #expect(ElapsedTimeFormat.elapsed(since: now.addingTimeInterval(120), now: now) == 0)
            let state = Fixture.content(reference: now.addingTimeInterval(120))
            #expect(state.elapsedClockText(at: now) == "0:00")
            #expect(TimerDisplay(state).text(at: now) == "0:00")
            #expect(TimerDisplay.ticking(from: now.addingTimeInterval(-90)).text(at: now) == "1:30")
        }
    }
}
