import Foundation
import LiveTranscriberCore
import LiveTranscriberServe
import LiveTranscriberTestSupport
import Testing

@Suite("The Live page's card of a recording in progress")
struct LiveRecordingViewTests {
    let t0 = LiveActivityFixture.t0

    func event(_ json: String) throws -> RecordingStreamEvent {
        try JSONDecoder().decode(RecordingStreamEvent.self, from: Data(json.utf8))
    }

    @Test("before the Live Activity starts: Preparing, amber, a fixed 0:00, the phase from the stream")
    func preparing() throws {
        var view = LiveRecordingView(id: "20261202-055359-0222")
        view.apply(try event(#"{"audio_end":0,"audio_start":0,"elapsed":0.01,"phase":"preparing","type":"phase"}"#))
        let card = view.card(now: t0)
        #expect(card.status == "Preparing" && card.dot == "amber" && card.dotHex == "#FF9F0A")
        #expect(card.timer == LiveRecordingView.Timer(ticking: false, from: nil, text: "0:00"))
        #expect(card.name == nil && card.language == nil && card.phase == "preparing")
        #expect(card.segmentCountText == "0 segments" && card.finals.isEmpty && !card.finished)
        #expect(view.elapsedSeconds(now: t0) == 0)
    }

    @Test("recording: the Lock Screen presentation's status, dot, ticking clock, language and count; finals newest first with start times; the interim line")
    func recording() throws {
        var view = LiveRecordingView(id: "rec-1")
        view.applyActivity(attributes: LiveActivityFixture.attributes,
                           content: LiveActivityFixture.content(.recording, reference: t0, language: "de-DE", count: 2))
        view.apply(try event(#"{"audio_end":0,"audio_start":0,"elapsed":0.4,"phase":"recording","type":"phase"}"#))
        view.apply(try event(#"{"audio_end":2.3,"audio_start":0,"elapsed":2.7,"text":"And Mr.","type":"interim"}"#))
        #expect(view.card(now: t0).interim == "And Mr.")
        view.apply(try event(#"{"audio_end":7.02,"audio_start":0.06,"elapsed":8.1,"text":"And Mr. John Dashwood","type":"final","words":[]}"#))
        #expect(view.card(now: t0).interim == nil)  // a final replaces the interim line
        view.apply(try event(#"{"audio_end":9,"audio_start":7.02,"elapsed":9.4,"text":"had then","type":"interim"}"#))
        view.apply(try event(#"{"audio_end":66,"audio_start":65.5,"elapsed":66.4,"text":"leisure","type":"final","words":[]}"#))
        view.apply(try event(#"{"audio_end":67,"audio_start":66,"elapsed":67.1,"text":"to","type":"interim"}"#))
        let card = view.card(now: t0.addingTimeInterval(90))
        #expect(card.name == "Standup" && card.status == "Recording" && card.dot == "red" && card.dotHex == "#FF3B30")
        #expect(card.timer == LiveRecordingView.Timer(ticking: true, from: t0, text: "1:30"))
        #expect(card.language == "de-DE" && card.segmentCount == 2 && card.segmentCountText == "2 segments")
        #expect(card.interim == "to")
        #expect(card.finals == [LiveRecordingView.FinalLine(start: 65.5, time: "1:05", text: "leisure"),
                                LiveRecordingView.FinalLine(start: 0.06, time: "0:00", text: "And Mr. John Dashwood")])
        #expect(view.elapsedSeconds(now: t0.addingTimeInterval(90)) == 90)
    }

    @Test("an empty interim clears the line; paused shows the fixed elapsed text in amber")
    func paused() throws {
        var view = LiveRecordingView(id: "rec-1")
        view.applyActivity(attributes: LiveActivityFixture.attributes, content: LiveActivityFixture.content(.recording))
        view.apply(try event(#"{"audio_end":1,"audio_start":0,"elapsed":1,"text":"so","type":"interim"}"#))
        view.apply(try event(#"{"audio_end":1,"audio_start":0,"elapsed":1.1,"text":"","type":"interim"}"#))
        view.applyActivity(attributes: nil, content: LiveActivityFixture.content(.paused, elapsed: 75, count: 1))
        let card = view.card(now: t0.addingTimeInterval(500))
        #expect(card.interim == nil && card.status == "Paused" && card.dot == "amber")
        #expect(card.timer == LiveRecordingView.Timer(ticking: false, from: nil, text: "1:15"))
        #expect(card.segmentCountText == "1 segment" && card.name == "Standup")  // the attributes are kept
        #expect(view.elapsedSeconds(now: t0.addingTimeInterval(500)) == 75)
    }

    @Test("saved or discarded: finished, stopped and green, no interim line; an end without content keeps the last")
    func finished() throws {
        for phase in ["saved", "discarded"] {
            var view = LiveRecordingView(id: "rec-1")
            view.applyActivity(attributes: LiveActivityFixture.attributes, content: LiveActivityFixture.content(.stopped, elapsed: 12, count: 3))
            view.apply(try event(#"{"audio_end":12,"audio_start":11,"elapsed":12,"text":"left","type":"interim"}"#))
            view.applyActivity(attributes: nil, content: nil)
            view.apply(try event(#"{"audio_end":12,"audio_start":12,"elapsed":12.5,"phase":"\#(phase)","type":"phase"}"#))
            let card = view.card(now: t0)
            #expect(view.isFinished && card.finished && card.phase == phase)
            // Only a saved recording can be opened (trial 6: a discarded one was linked, and the link found nothing).
            #expect(card.saved == (phase == "saved") && card.note == nil)
            #expect(card.status == (phase == "saved" ? "Stopped" : "Discarded") && card.dot == "green" && card.timer.text == "0:12" && card.interim == nil)
            #expect(card.segmentCount == 3)
        }
        var stopping = LiveRecordingView(id: "rec-1")
        stopping.apply(try event(#"{"audio_end":12,"audio_start":12,"elapsed":12.5,"phase":"stopping","type":"phase"}"#))
        #expect(!stopping.isFinished)
    }
}

@Suite("The Live page's card when its recorder is gone")
struct LiveRecordingGoneTests {
    @Test("a recorder gone without saying saved: finished, the clock stopped where it was")
    func gone() {
        let t0 = LiveActivityFixture.t0
        var view = LiveRecordingView(id: "rec-1")
        view.applyActivity(attributes: LiveActivityFixture.attributes, content: LiveActivityFixture.content(.recording, reference: t0))
        view.recorderGone(at: t0.addingTimeInterval(42))
        view.recorderGone(at: t0.addingTimeInterval(50))  // the first time counts
        let card = view.card(now: t0.addingTimeInterval(100))
        #expect(card.finished && card.timer == LiveRecordingView.Timer(ticking: false, from: nil, text: "0:42"))
        #expect(view.elapsedSeconds(now: t0.addingTimeInterval(100)) == 42)
        // Trial 6 (`kill -9` of a terminal's record): the card said "Recording" in red and linked to a
        // recording that was not saved. It says what happened, and links nowhere.
        #expect(card.status == "Interrupted" && card.dot == "amber" && card.dotHex == "#FF9F0A")
        #expect(!card.saved)
        #expect(card.note == "The recorder ended without saving; the next livetranscriber command recovers what it recorded.")
    }

    @Test("a recorder gone after it said saved: still the saved card, which links to the recording")
    func goneAfterSaving() throws {
        let t0 = LiveActivityFixture.t0
        var view = LiveRecordingView(id: "rec-1")
        view.applyActivity(attributes: LiveActivityFixture.attributes, content: LiveActivityFixture.content(.stopped, elapsed: 12, count: 3))
        view.apply(try JSONDecoder().decode(RecordingStreamEvent.self, from: Data(#"{"audio_end":12,"audio_start":12,"elapsed":12.5,"phase":"saved","type":"phase"}"#.utf8)))
        view.recorderGone(at: t0.addingTimeInterval(13))
        let card = view.card(now: t0.addingTimeInterval(20))
        #expect(card.saved && card.status == "Stopped" && card.dot == "green" && card.note == nil)
    }
}
