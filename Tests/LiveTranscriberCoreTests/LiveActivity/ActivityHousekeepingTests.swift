import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Leftover activities and the 8-hour limit")
    struct ActivityHousekeepingTests {
        let t0 = Fixture.t0

        @Test("activities left by a crashed session are ended and a new one is requested")
        func leftovers() {
            let existing = [
                ExistingActivity(id: "old-1", recordingID: "rec-0", startedAt: t0 - 3600),
                ExistingActivity(id: "old-2", recordingID: "rec-00", startedAt: t0 - 60),
            ]
            let plan = ActivityHousekeeping.plan(existing: existing, currentRecordingID: "rec-1", now: t0)
            #expect(plan == .init(activitiesToEnd: ["old-1", "old-2"], activityToKeep: nil, requestNew: true))
        }

        @Test("with nothing recording, every activity is ended and none requested")
        func idle() {
            let existing = [ExistingActivity(id: "a", recordingID: "rec-1", startedAt: t0)]
            let plan = ActivityHousekeeping.plan(existing: existing, currentRecordingID: nil, now: t0)
            #expect(plan == .init(activitiesToEnd: ["a"], activityToKeep: nil, requestNew: false))
        }

        @Test("the newest activity of the current recording is kept, duplicates ended")
        func keepNewest() {
            let existing = [
                ExistingActivity(id: "a", recordingID: "rec-1", startedAt: t0 - 600),
                ExistingActivity(id: "b", recordingID: "rec-1", startedAt: t0 - 60),
            ]
            let plan = ActivityHousekeeping.plan(existing: existing, currentRecordingID: "rec-1", now: t0)
            #expect(plan == .init(activitiesToEnd: ["a"], activityToKeep: "b", requestNew: false))
        }

        @Test("an activity near 8 hours is replaced; one just younger is kept", arguments: [
            (28_499.0, false), (28_500.0, true), (28_801.0, true), (-3_600.0, false),
        ])
        func renewal(age: Double, renew: Bool) {
            let existing = [ExistingActivity(id: "a", recordingID: "rec-1", startedAt: t0 - age)]
            let plan = ActivityHousekeeping.plan(existing: existing, currentRecordingID: "rec-1", now: t0)
            #expect(plan.requestNew == renew)
            #expect(plan.activitiesToEnd == (renew ? ["a"] : []))
            #expect(plan.activityToKeep == (renew ? nil : "a"))
        }

        @Test("with nothing existing and nothing recording there is nothing to do")
        func empty() {
            #expect(ActivityHousekeeping.plan(existing: [], currentRecordingID: nil, now: t0)
                == .init(activitiesToEnd: [], activityToKeep: nil, requestNew: false))
        }
    }
}
