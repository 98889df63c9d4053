import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

extension LiveActivityTests {
    @Suite("Live Activity coordinator")
    struct LiveActivityCoordinatorTests {
        let t0 = Fixture.t0

        func make(existing: [ExistingActivity] = [], refuse: Bool = false)
            -> (LiveActivityCoordinator, RecordingActivityClient, ManualClock) {
            let clock = ManualClock(start: t0)
            let client = RecordingActivityClient(existing: existing, refuse: refuse)
            let coordinator = LiveActivityCoordinator(attributes: Fixture.attributes, language: "en-US", clock: clock, client: client)
            return (coordinator, client, clock)
        }

        @Test("a whole recording: start once, one update per final, pause, resume, stop, end")
        func wholeRecording() {
            let (coordinator, client, clock) = make()
            #expect(coordinator.lastContentState == nil)
            coordinator.recordingStarted()
            coordinator.recordingStarted()
            clock.advance(by: 10)
            coordinator.interimChanged("hel")
            coordinator.interimChanged("hello the")
            coordinator.finalSegmentsChanged(Fixture.segments("Hello there."))
            coordinator.finalSegmentsChanged(Fixture.segments("Hello there."))
            clock.advance(by: 80)
            coordinator.paused()
            clock.advance(by: 30)
            coordinator.resumed()
            clock.advance(by: 90)
            coordinator.stopped()
            coordinator.end(dismissal: .default)
            coordinator.finalSegmentsChanged(Fixture.segments("Hello there.", "Too late."))

            let hello = "Hello there."
            #expect(client.calls == [
                .request(Fixture.attributes, Fixture.content(), staleDate: t0 + 1800, timestamp: t0),
                .update("A1", Fixture.content(transcript: hello, count: 1), timestamp: t0 + 10, staleDate: t0 + 1810),
                .update("A1", Fixture.content(.paused, elapsed: 90, transcript: hello, count: 1), timestamp: t0 + 90, staleDate: t0 + 1890),
                .update("A1", Fixture.content(reference: t0 + 30, transcript: hello, count: 1), timestamp: t0 + 120, staleDate: t0 + 1920),
                .update("A1", Fixture.content(.stopped, reference: t0 + 30, elapsed: 180, transcript: hello, count: 1),
                        timestamp: t0 + 210, staleDate: nil),
                .end("A1", Fixture.content(.stopped, reference: t0 + 30, elapsed: 180, transcript: hello, count: 1),
                     .default, timestamp: t0 + 210),
            ])
            #expect(coordinator.lastContentState?.status == .stopped)
        }

        @Test("interim text alone never reaches the client")
        func interimOnly() {
            let (coordinator, client, clock) = make()
            coordinator.recordingStarted()
            for word in ["a", "a b", "a b c"] {
                clock.advance(by: 1)
                coordinator.interimChanged(word)
            }
            #expect(client.calls.count == 1)
        }

        @Test("activities left by a crashed session are ended at start-up")
        func crashedSession() {
            let (coordinator, client, _) = make(existing: [ExistingActivity(id: "old", recordingID: "rec-0", startedAt: t0 - 7200)])
            coordinator.recordingStarted()
            #expect(client.calls == [
                .end("old", nil, .immediate, timestamp: t0),
                .request(Fixture.attributes, Fixture.content(), staleDate: t0 + 1800, timestamp: t0),
            ])
        }

        @Test("a recording longer than 8 hours gets a fresh activity with the same timer reference")
        func longRecording() {
            let (coordinator, client, clock) = make()
            coordinator.recordingStarted()
            clock.advance(by: 8 * 3600 - 300)
            coordinator.clockTicked()
            clock.advance(by: 60)
            coordinator.finalSegmentsChanged(Fixture.segments("still here"))
            let at = t0 + 8 * 3600 - 300
            #expect(client.calls.dropFirst().map { $0 } == [
                .end("A1", Fixture.content(), .immediate, timestamp: at),
                .request(Fixture.attributes, Fixture.content(), staleDate: at + 1800, timestamp: at),
                .update("A2", Fixture.content(transcript: "still here", count: 1), timestamp: at + 60, staleDate: at + 1860),
            ])
        }

        @Test("a refused request is remembered and nothing else is sent")
        func refused() {
            let (coordinator, client, clock) = make(refuse: true)
            coordinator.recordingStarted()
            clock.advance(by: 1)
            coordinator.finalSegmentsChanged(Fixture.segments("x"))
            coordinator.end(dismissal: .immediate)
            #expect(client.calls == [])
            #expect(coordinator.lastError != nil)
            #expect(coordinator.lastContentState?.status == .stopped)
        }

        @Test("timestamps sent never go backwards when the clock does")
        func clockBack() {
            let (coordinator, client, clock) = make()
            coordinator.recordingStarted()
            clock.advance(by: 100)
            coordinator.finalSegmentsChanged(Fixture.segments("a"))
            clock.advance(by: -60)
            coordinator.finalSegmentsChanged(Fixture.segments("a", "b"))
            let timestamps: [Date] = client.calls.map {
                switch $0 {
                case .request(_, _, _, let t), .update(_, _, let t, _), .end(_, _, _, let t): t
                }
            }
            #expect(timestamps == [t0, t0 + 100, t0 + 100])
        }
    
        @Test("events from many threads still reach the client in timestamp order")
        func concurrent() {
            let (coordinator, client, clock) = make()
            coordinator.recordingStarted()
            let texts = (0..<200).map { "segment \($0)" }
            DispatchQueue.concurrentPerform(iterations: 200) { index in
                clock.advance(by: 1)
                coordinator.finalSegmentsChanged(texts.prefix(index + 1).map { TranscriptSegment(text: $0, startSeconds: 0, endSeconds: 1) })
                coordinator.interimChanged("noise")
            }
            let timestamps: [Date] = client.calls.map {
                switch $0 {
                case .request(_, _, _, let t), .update(_, _, let t, _), .end(_, _, _, let t): t
                }
            }
            #expect(timestamps == timestamps.sorted())
            #expect(timestamps.count >= 2)
            #expect(timestamps.count <= 201)
        }
}
}
