import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Apple's 4 KB content state limit")
    struct ActivityPayloadBudgetTests {
        static let cases: [(String, String, Int)] = [
            ("10,000 ASCII characters", String(repeating: "a", count: 10_000), 4096),
            ("2,000 CJK characters", String(repeating: "语", count: 2_000), 4094),
            ("1,500 emoji", String(repeating: "😀", count: 1_500), 4093),
            ("3,000 quotes, escaped in JSON", String(repeating: "\"", count: 3_000), 4095),
        ]

        @Test("content state plus attributes fit in 4,096 bytes whatever the transcript", arguments: cases)
        func fits(label: String, transcript: String, atLeast: Int) {
            let content = Fixture.content(transcript: transcript, count: 3)
            #expect(ActivityPayloadBudget.encodedSize(attributes: Fixture.attributes, content: content) > 4096)
            let fitted = ActivityPayloadBudget.standard.fit(attributes: Fixture.attributes, content: content)
            let size = ActivityPayloadBudget.encodedSize(attributes: fitted.attributes, content: fitted.content)
            #expect(size <= 4096)
            #expect(size >= atLeast)  // cut by whole characters, as little as possible
            #expect(fitted.attributes == Fixture.attributes)
            #expect(fitted.content.transcript.hasPrefix("…"))
            #expect(transcript.hasSuffix(String(fitted.content.transcript.dropFirst())))
            #expect(fitted.content.segmentCount == 3)
        }

        @Test("a 300-character name is kept and the transcript gives way")
        func longName() {
            let attributes = RecordingActivityAttributes(recordingID: "rec-1", name: String(repeating: "Ü", count: 300), startDate: Fixture.t0)
            let content = Fixture.content(transcript: String(repeating: "语", count: 2_000))
            let fitted = ActivityPayloadBudget.standard.fit(attributes: attributes, content: content)
            #expect(fitted.attributes.name == attributes.name)
            #expect(ActivityPayloadBudget.encodedSize(attributes: fitted.attributes, content: fitted.content) <= 4096)
            #expect(fitted.content.transcript.count > 900)
        }

        @Test("a name too big on its own is cut at the end by whole emoji after the transcript is gone")
        func hugeName() {
            let attributes = RecordingActivityAttributes(recordingID: "rec-1", name: String(repeating: "👩🏽‍💻", count: 400), startDate: Fixture.t0)
            let fitted = ActivityPayloadBudget.standard.fit(attributes: attributes, content: Fixture.content(transcript: "hello"))
            #expect(ActivityPayloadBudget.encodedSize(attributes: fitted.attributes, content: fitted.content) <= 4096)
            #expect(fitted.content.transcript == "")
            #expect(fitted.attributes.name.hasSuffix("…"))
            #expect(fitted.attributes.name.dropLast().allSatisfy { $0 == "👩🏽‍💻" })
            #expect(fitted.attributes.name.count > 100)
        }

        @Test("values that fit are returned unchanged")
        func unchanged() {
            let content = Fixture.content(transcript: "short")
            let fitted = ActivityPayloadBudget.standard.fit(attributes: Fixture.attributes, content: content)
            #expect(fitted.content == content)
            #expect(fitted.attributes == Fixture.attributes)
        }
    }
}
