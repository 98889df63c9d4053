import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Deep links")
    struct LiveTranscriberDeepLinkTests {
        @Test("links build and parse back", arguments: [
            (LiveTranscriberDeepLink.stopRecording(session: nil), "livetranscriber://stop-recording"),
            (.stopRecording(session: "rec-1"), "livetranscriber://stop-recording?session=rec-1"),
            (.stopRecording(session: "a b&c"), "livetranscriber://stop-recording?session=a%20b%26c"),
            (.record, "livetranscriber://record"),
            (.recordings, "livetranscriber://recordings"),
            (.settings, "livetranscriber://settings"),
        ])
        func roundTrip(link: LiveTranscriberDeepLink, text: String) throws {
            #expect(link.urlString == text)
            #expect(link.url.absoluteString == text)
            #expect(try LiveTranscriberDeepLink(url: link.url) == link)
            #expect(try LiveTranscriberDeepLink(string: text) == link)
        }

        @Test("unknown or malformed links throw a typed error", arguments: [
            ("https://example.com/stop-recording", DeepLinkError.wrongScheme("https")),
            ("livetranscriber://delete-recording", .unknownDestination("delete-recording")),
            ("livetranscriber://recordings/123/delete", .unknownDestination("recordings/123/delete")),
            ("livetranscriber://stop-recording?session=", .badQuery("'session' is empty")),
            ("livetranscriber://stop-recording?id=1", .badQuery("unknown item 'id'")),
            ("livetranscriber://stop-recording?session=a&session=b", .badQuery("'session' given twice")),
            ("livetranscriber://settings?tab=1", .badQuery("'settings' takes no 'tab'")),
            ("no scheme at all", .malformed("no scheme at all")),
        ])
        func errors(text: String, error: DeepLinkError) {
            #expect(throws: error) { try LiveTranscriberDeepLink(string: text) }
        }

        @Test("a stop link for an old session cannot stop a newer recording")
        func sessionMatch() {
            let old = LiveTranscriberDeepLink.stopRecording(session: "rec-1")
            #expect(old.matches(currentSession: "rec-1"))
            #expect(!old.matches(currentSession: "rec-2"))
            #expect(!old.matches(currentSession: nil))
            #expect(LiveTranscriberDeepLink.stopRecording(session: nil).matches(currentSession: "rec-2"))
            #expect(LiveTranscriberDeepLink.recordings.matches(currentSession: nil))
        }

        @Test("no link deletes anything")
        func nothingDestructive() {
            #expect(LiveTranscriberDeepLink.examples.count == 5)
            #expect(LiveTranscriberDeepLink.examples.allSatisfy { !$0.isDestructive })
            for word in ["delete", "discard", "remove", "erase"] {
                #expect(throws: DeepLinkError.unknownDestination(word)) { try LiveTranscriberDeepLink(string: "livetranscriber://\(word)") }
            }
        }
    }
}
