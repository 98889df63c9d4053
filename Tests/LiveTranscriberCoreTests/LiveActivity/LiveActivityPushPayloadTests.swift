import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("APNs Live Activity payloads")
    struct LiveActivityPushPayloadTests {
        let t0 = Fixture.t0

        @Test("a start payload carries attributes-type and attributes; dates inside are seconds since 2001")
        func start() throws {
            let action = LiveActivityAction.request(attributes: Fixture.attributes, content: Fixture.content(transcript: "Hi", count: 1),
                                                    staleDate: t0 + 1800, timestamp: t0)
            let payload = try #require(LiveActivityPushPayload(action: action, relevanceScore: 0.5))
            #expect(try payload.jsonString() == #"{"aps":{"attributes":{"name":"Standup","recordingID":"rec-1","startDate":721692800},"attributes-type":"RecordingActivityAttributes","content-state":{"language":"en-US","segmentCount":1,"status":"recording","timerReferenceDate":721692800,"transcript":"Hi"},"event":"start","relevance-score":0.5,"stale-date":1700001800,"timestamp":1700000000}}"#)
        }

        @Test("an update payload has no attributes")
        func update() throws {
            let action = LiveActivityAction.update(activityID: "A1", content: Fixture.content(.paused, elapsed: 90),
                                                   staleDate: nil, timestamp: t0 + 90.9)
            let payload = try #require(LiveActivityPushPayload(action: action))
            #expect(try payload.jsonString() == #"{"aps":{"content-state":{"elapsedSeconds":90,"language":"en-US","segmentCount":0,"status":"paused","timerReferenceDate":721692800,"transcript":""},"event":"update","timestamp":1700000090}}"#)
        }

        @Test("the dismissal policy becomes the dismissal date", arguments: [
            (ActivityDismissalPolicy.immediate, #","dismissal-date":1700000010,"# as String?),
            (.after(Date(timeIntervalSince1970: 1_700_003_600)), #","dismissal-date":1700003600,"#),
            (.default, nil),
        ])
        func end(dismissal: ActivityDismissalPolicy, fragment: String?) throws {
            let action = LiveActivityAction.end(activityID: "A1", content: Fixture.content(.stopped, elapsed: 10),
                                                dismissal: dismissal, timestamp: t0 + 10)
            let json = try #require(LiveActivityPushPayload(action: action)).jsonString()
            #expect(json.contains(#""event":"end""#))
            if let fragment { #expect(json.contains(fragment)) } else { #expect(!json.contains("dismissal-date")) }
        }

        @Test("an end without content cannot be pushed")
        func endWithoutContent() {
            #expect(LiveActivityPushPayload(action: .end(activityID: "X", content: nil, dismissal: .immediate, timestamp: t0)) == nil)
        }

        @Test("content-state decodes with a default JSONDecoder, as ActivityKit decodes it")
        func activityKitDecoding() throws {
            let content = Fixture.content(reference: t0 - 90, transcript: "naïve café 👍🏽", count: 2)
            let payload = LiveActivityPushPayload(event: .update, timestamp: t0, content: content)
            let object = try #require(try JSONSerialization.jsonObject(with: payload.encoded()) as? [String: Any])
            let aps = try #require(object["aps"] as? [String: Any])
            let state = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
            let decoded = try JSONDecoder().decode(RecordingActivityAttributes.ContentState.self, from: state)
            #expect(decoded == content)
            #expect(decoded.timerReferenceDate == Date(timeIntervalSince1970: 1_699_999_910))
        }

        @Test("non-finite dates never trap", arguments: [Double.nan, .infinity, -.infinity, 1e300])
        func garbageDates(seconds: Double) {
            #expect(LiveActivityPushPayload.unixSeconds(Date(timeIntervalSince1970: seconds)) == 0)
        }
    }
}
