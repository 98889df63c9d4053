import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Attributes and content state coding")
    struct ContentStateCodingTests {
        func json<Value: Encodable>(_ value: Value) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }

        @Test("content state has stable keys and dates in seconds since 2001")
        func contentStateVector() throws {
            let state = Fixture.content(.paused, elapsed: 90, transcript: "Hello there.", count: 1)
            #expect(try json(state) == #"{"elapsedSeconds":90,"language":"en-US","segmentCount":1,"status":"paused","timerReferenceDate":721692800,"transcript":"Hello there."}"#)
        }

        @Test("a recording content state omits elapsedSeconds")
        func recordingVector() throws {
            #expect(try json(Fixture.content()) == #"{"language":"en-US","segmentCount":0,"status":"recording","timerReferenceDate":721692800,"transcript":""}"#)
        }

        @Test("attributes have stable keys")
        func attributesVector() throws {
            #expect(try json(Fixture.attributes) == #"{"name":"Standup","recordingID":"rec-1","startDate":721692800}"#)
        }

        @Test("a default JSONDecoder (as ActivityKit uses) reads back the same values")
        func roundTrip() throws {
            let state = Fixture.content(.stopped, reference: Fixture.t0.addingTimeInterval(0.5), elapsed: 3599,
                                        transcript: "naïve 🇯🇵 👍🏽", count: 7)
            let decoded = try JSONDecoder().decode(RecordingActivityAttributes.ContentState.self, from: JSONEncoder().encode(state))
            #expect(decoded == state)
            let attributes = try JSONDecoder().decode(RecordingActivityAttributes.self, from: JSONEncoder().encode(Fixture.attributes))
            #expect(attributes == Fixture.attributes)
        }

        @Test("equal content states hash alike, different ones compare unequal")
        func hashable() {
            let a = Fixture.content(transcript: "x")
            #expect(Set([a, Fixture.content(transcript: "x")]).count == 1)
            #expect(a != Fixture.content(transcript: "y"))
        }
    }
}
