import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Quick links")
    struct QuickLinkTests {
        @Test("the widget's three shortcuts open record, recordings and settings, in that order")
        func shortcuts() {
            #expect(QuickLink.all.map(\.link.urlString) == [
                "livetranscriber://record", "livetranscriber://recordings", "livetranscriber://settings",
            ])
            #expect(QuickLink.all.map(\.title) == ["Record", "Recordings", "Settings"])
            #expect(QuickLink.all.map(\.systemImageName) == ["mic.fill", "list.bullet", "gearshape"])
            #expect(Set(QuickLink.all.map(\.id)).count == 3)
        }

        @Test("no shortcut, and not a tap on the Live Activity, stops or deletes a recording")
        func harmless() {
            for link in QuickLink.all.map(\.link) + [QuickLink.activityTapLink] {
                #expect(!link.isDestructive)
                if case .stopRecording = link { Issue.record("\(link) stops a recording") }
            }
            #expect(QuickLink.activityTapLink == .record)
        }
    }
}
