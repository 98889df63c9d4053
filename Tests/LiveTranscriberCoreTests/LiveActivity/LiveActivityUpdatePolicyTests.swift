import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Live Activity update policy")
    struct LiveActivityUpdatePolicyTests {
        let t0 = Fixture.t0
        let attributes = Fixture.attributes

        /// A policy that has started and been given activity "A1".
        func started() -> LiveActivityUpdatePolicy {
            var policy = LiveActivityUpdatePolicy.standard
            _ = policy.recordingStarted(attributes: attributes, language: "en-US", existing: [], now: t0)
            policy.activityRequested(id: "A1")
            return policy
        }

        @Test("recording start requests one activity with a ticking timer and a stale date")
        func start() {
            var policy = LiveActivityUpdatePolicy.standard
            let actions = policy.recordingStarted(attributes: attributes, language: "en-US", existing: [], now: t0)
            #expect(actions == [.request(attributes: attributes, content: Fixture.content(), staleDate: t0 + 1800, timestamp: t0)])
            #expect(policy.recordingStarted(attributes: attributes, language: "en-US", existing: [], now: t0 + 1) == [])
        }

        @Test("one update per new final segment, none when nothing changed, none for interim text")
        func finals() {
            var policy = started()
            let one = Fixture.segments("Hello there.")
            #expect(policy.finalSegmentsChanged(one, now: t0 + 5) == [
                .update(activityID: "A1", content: Fixture.content(transcript: "Hello there.", count: 1), staleDate: t0 + 1805, timestamp: t0 + 5),
            ])
            #expect(policy.finalSegmentsChanged(one, now: t0 + 6) == [])
            #expect(policy.interimChanged("and then", now: t0 + 7) == [])
            let two = Fixture.segments("Hello there.", "General Kenobi.")
            #expect(policy.finalSegmentsChanged(two, now: t0 + 8) == [
                .update(activityID: "A1", content: Fixture.content(transcript: "Hello there.\nGeneral Kenobi.", count: 2),
                        staleDate: t0 + 1808, timestamp: t0 + 8),
            ])
        }

        @Test("pause, resume and stop send one update each; the timer excludes the pause")
        func pauseResumeStop() {
            var policy = started()
            #expect(policy.paused(now: t0 + 90) == [
                .update(activityID: "A1", content: Fixture.content(.paused, elapsed: 90), staleDate: t0 + 1890, timestamp: t0 + 90),
            ])
            #expect(policy.paused(now: t0 + 100) == [])
            #expect(policy.resumed(now: t0 + 120) == [
                .update(activityID: "A1", content: Fixture.content(reference: t0 + 30), staleDate: t0 + 1920, timestamp: t0 + 120),
            ])
            #expect(policy.resumed(now: t0 + 121) == [])
            // An update in between keeps the same reference date: the clock never restarts.
            let mid = policy.finalSegmentsChanged(Fixture.segments("Hi."), now: t0 + 150)
            #expect(mid.first?.content?.timerReferenceDate == t0 + 30)
            #expect(policy.stopped(now: t0 + 210) == [
                .update(activityID: "A1", content: Fixture.content(.stopped, reference: t0 + 30, elapsed: 180, transcript: "Hi.", count: 1),
                        staleDate: nil, timestamp: t0 + 210),
            ])
            #expect(policy.stopped(now: t0 + 211) == [])
            #expect(policy.lastContentState?.elapsedText == "3:00")
        }

        @Test("end carries the stopped content and the dismissal policy; later events do nothing")
        func end() {
            var policy = started()
            _ = policy.stopped(now: t0 + 9)
            let stopped = Fixture.content(.stopped, elapsed: 9)
            #expect(policy.end(dismissal: .after(t0 + 600), now: t0 + 10) == [
                .end(activityID: "A1", content: stopped, dismissal: .after(t0 + 600), timestamp: t0 + 10),
            ])
            #expect(policy.finalSegmentsChanged(Fixture.segments("late"), now: t0 + 11) == [])
            #expect(policy.end(dismissal: .immediate, now: t0 + 12) == [])
            #expect(policy.lastContentState == stopped)
        }

        @Test("end without stop stops first")
        func endWithoutStop() {
            var policy = started()
            let actions = policy.end(dismissal: .default, now: t0 + 3600)
            #expect(actions == [.end(activityID: "A1", content: Fixture.content(.stopped, elapsed: 3600), dismissal: .default, timestamp: t0 + 3600)])
        }

        @Test("an older timestamp is never sent after a newer one, even when the clock goes back")
        func monotonicTimestamps() {
            var policy = started()
            _ = policy.finalSegmentsChanged(Fixture.segments("a"), now: t0 + 100)
            let back = policy.finalSegmentsChanged(Fixture.segments("a", "b"), now: t0 + 40)
            #expect(back.map(\.timestamp) == [t0 + 100])
            let paused = policy.paused(now: t0 + 50)
            #expect(paused.map(\.timestamp) == [t0 + 100])
            #expect(policy.resumed(now: t0 + 200).map(\.timestamp) == [t0 + 200])
        }

        @Test("leftover activities are ended before the request")
        func leftovers() {
            var policy = LiveActivityUpdatePolicy.standard
            let existing = [ExistingActivity(id: "X", recordingID: "rec-0", startedAt: t0 - 3600)]
            let actions = policy.recordingStarted(attributes: attributes, language: "en-US", existing: existing, now: t0)
            #expect(actions == [
                .end(activityID: "X", content: nil, dismissal: .immediate, timestamp: t0),
                .request(attributes: attributes, content: Fixture.content(), staleDate: t0 + 1800, timestamp: t0),
            ])
        }

        @Test("an activity of the same recording that survived is adopted, not duplicated")
        func adopt() {
            var policy = LiveActivityUpdatePolicy.standard
            let existing = [ExistingActivity(id: "K", recordingID: "rec-1", startedAt: t0 - 60)]
            let actions = policy.recordingStarted(attributes: attributes, language: "en-US", existing: existing, now: t0)
            #expect(actions == [.update(activityID: "K", content: Fixture.content(), staleDate: t0 + 1800, timestamp: t0)])
            #expect(policy.activityID == "K")
        }

        @Test("near 8 hours the activity is replaced by a fresh one with the same timer reference")
        func renewal() {
            var policy = started()
            #expect(policy.clockTicked(now: t0 + 1000) == [])
            let at = t0 + 8 * 3600 - 300
            let content = Fixture.content()
            #expect(policy.clockTicked(now: at) == [
                .end(activityID: "A1", content: content, dismissal: .immediate, timestamp: at),
                .request(attributes: attributes, content: content, staleDate: at + 1800, timestamp: at),
            ])
            policy.activityRequested(id: "A2")
            #expect(policy.paused(now: at + 10).first == .update(
                activityID: "A2", content: Fixture.content(.paused, elapsed: 28510), staleDate: at + 1810, timestamp: at + 10))
        }

        @Test("a renewal due at the next event replaces the activity and carries the new content")
        func renewalOnEvent() {
            var policy = started()
            let at = t0 + 9 * 3600
            let actions = policy.finalSegmentsChanged(Fixture.segments("late"), now: at)
            let content = Fixture.content(transcript: "late", count: 1)
            #expect(actions == [
                .end(activityID: "A1", content: content, dismissal: .immediate, timestamp: at),
                .request(attributes: attributes, content: content, staleDate: at + 1800, timestamp: at),
            ])
        }

        @Test("the stale date is pushed forward shortly before it passes")
        func staleRefresh() {
            var policy = started()
            #expect(policy.clockTicked(now: t0 + 1499) == [])
            #expect(policy.clockTicked(now: t0 + 1500) == [
                .update(activityID: "A1", content: Fixture.content(), staleDate: t0 + 3300, timestamp: t0 + 1500),
            ])
            #expect(policy.clockTicked(now: t0 + 1600) == [])
        }

        @Test("after a failed request nothing is sent, but the content state is still tracked")
        func failedRequest() {
            var policy = LiveActivityUpdatePolicy.standard
            _ = policy.recordingStarted(attributes: attributes, language: "en-US", existing: [], now: t0)
            policy.activityRequestFailed()
            #expect(policy.finalSegmentsChanged(Fixture.segments("x"), now: t0 + 1) == [])
            #expect(policy.lastContentState == Fixture.content(transcript: "x", count: 1))
            #expect(policy.end(dismissal: .immediate, now: t0 + 2) == [])
        }

        @Test("a huge transcript is sent within 4 KB")
        func budget() throws {
            var policy = started()
            let finals = (0..<50).map { TranscriptSegment(text: String(repeating: "😀", count: 200), startSeconds: Double($0), endSeconds: Double($0)) }
            let actions = policy.finalSegmentsChanged(finals, now: t0 + 1)
            let content = try #require(actions.first?.content)
            #expect(content.transcript.count == 700)
            #expect(ActivityPayloadBudget.encodedSize(attributes: attributes, content: content) <= 4096)
        }
    }
}
