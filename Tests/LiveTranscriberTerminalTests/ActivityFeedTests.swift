import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberTestSupport
import Synchronization
import Testing

extension LiveActivityTests {
    @Suite("JSON Lines activity feed")
    struct ActivityFeedTests {
        let t0 = Fixture.t0

        @Test("each thing the coordinator does becomes one exact JSON line")
        func lines() {
            let lines = Mutex<[String]>([])
            let client = JSONLinesActivityClient { line in lines.withLock { $0.append(line) } }
            let clock = ManualClock(start: t0)
            let coordinator = LiveActivityCoordinator(attributes: Fixture.attributes, language: "en-US", clock: clock, client: client)
            coordinator.recordingStarted()
            clock.advance(by: 5)
            coordinator.interimChanged("hel")
            coordinator.finalSegmentsChanged(Fixture.segments("Hello \"there\"/"))
            clock.advance(by: 4)
            coordinator.stopped()
            coordinator.end(dismissal: .after(t0 + 60))
            #expect(lines.withLock { $0 } == [
                #"{"action":"start","activityID":"activity-1","attributes":{"name":"Standup","recordingID":"rec-1","startDate":"2023-11-14T22:13:20Z"},"contentState":{"language":"en-US","segmentCount":0,"status":"recording","timerReferenceDate":"2023-11-14T22:13:20Z","transcript":""},"staleDate":"2023-11-14T22:43:20Z","timestamp":"2023-11-14T22:13:20Z"}"#,
                #"{"action":"update","activityID":"activity-1","contentState":{"language":"en-US","segmentCount":1,"status":"recording","timerReferenceDate":"2023-11-14T22:13:20Z","transcript":"Hello \"there\"/"},"staleDate":"2023-11-14T22:43:25Z","timestamp":"2023-11-14T22:13:25Z"}"#,
                #"{"action":"update","activityID":"activity-1","contentState":{"elapsedSeconds":9,"language":"en-US","segmentCount":1,"status":"stopped","timerReferenceDate":"2023-11-14T22:13:20Z","transcript":"Hello \"there\"/"},"timestamp":"2023-11-14T22:13:29Z"}"#,
                #"{"action":"end","activityID":"activity-1","contentState":{"elapsedSeconds":9,"language":"en-US","segmentCount":1,"status":"stopped","timerReferenceDate":"2023-11-14T22:13:20Z","transcript":"Hello \"there\"/"},"dismissalDate":"2023-11-14T22:14:20Z","dismissalPolicy":"after","timestamp":"2023-11-14T22:13:29Z"}"#,
            ])
        }

        @Test("every line is a JSON object with an action and a timestamp")
        func parseable() throws {
            let encoder = ActivityFeedEncoder()
            let line = encoder.end(activityID: "X", content: nil, dismissalPolicy: .immediate, timestamp: t0)
            #expect(line == #"{"action":"end","activityID":"X","dismissalPolicy":"immediate","timestamp":"2023-11-14T22:13:20Z"}"#)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["action"] as? String == "end")
        }
    }
}
