import Foundation
import LiveTranscriberCore
import Testing

struct SpeakerAttributionTests {
    static func turn(_ start: Double, _ end: Double, _ speaker: Int) -> SpeakerTurn {
        SpeakerTurn(startSeconds: start, endSeconds: end, speaker: speaker)
    }

    static func words(_ spec: [(String, Double, Double)]) -> [WordTiming] {
        spec.map { WordTiming(word: $0.0, startSeconds: $0.1, endSeconds: $0.2) }
    }

    @Test func aVoicesTurnsCloserThanHalfASecondBecomeOneAndShortTurnsAreDropped() {
        let cleaned = SpeakerAttribution.cleaned([
            Self.turn(0, 2, 7), Self.turn(2.4, 4, 7),  // 0.4 s apart: joined
            Self.turn(4.1, 4.3, 5),                     // 0.2 s: dropped
            Self.turn(4.5, 6, 3), Self.turn(7, 8, 7),   // 1 s from 4…: kept apart
            Self.turn(9, 8, 3),                         // ends before it starts: dropped
        ])
        #expect(cleaned == [Self.turn(0, 4, 7), Self.turn(4.5, 6, 3), Self.turn(7, 8, 7)])
    }

    @Test func droppingAShortTurnLetsTheTurnsAroundItJoin() {
        let cleaned = SpeakerAttribution.cleaned([Self.turn(0, 2, 1), Self.turn(2.1, 2.3, 2), Self.turn(2.4, 5, 1)])
        #expect(cleaned == [Self.turn(0, 5, 1)])
    }

    @Test func speakersAreNumberedInOrderOfFirstSpeechInTheTranscript() {
        let segments = [
            TranscriptSegment(text: "Hello there.", startSeconds: 0.5, endSeconds: 2),
            TranscriptSegment(text: "Hi.", startSeconds: 3, endSeconds: 4),
            TranscriptSegment(text: "How are you?", startSeconds: 4.5, endSeconds: 6),
        ]
        // The diarizer's labels mean nothing: 5 speaks first, then 0.
        let labelled = SpeakerAttribution.label(segments, turns: [Self.turn(0.4, 2.2, 5), Self.turn(2.8, 4.1, 0), Self.turn(4.4, 6.2, 5)])
        #expect(labelled.segments.map(\.speaker) == ["S1", "S2", "S1"])
        #expect(labelled.speakers == [Speaker(id: "S1"), Speaker(id: "S2")])
        #expect(labelled.segments.map(\.text) == ["Hello there.", "Hi.", "How are you?"])
    }

    @Test func aSegmentWithoutWordTimesGoesToTheVoiceThatOverlapsItMost() {
        let segment = TranscriptSegment(text: "We agree.", startSeconds: 1, endSeconds: 5)
        let labelled = SpeakerAttribution.label([segment], turns: [Self.turn(0, 2.5, 1), Self.turn(2.5, 5, 2)])
        #expect(labelled.segments == [TranscriptSegment(text: "We agree.", startSeconds: 1, endSeconds: 5, speaker: "S1")])
        #expect(labelled.speakers == [Speaker(id: "S1")])
    }

    @Test func aSegmentNoTurnOverlapsGoesToTheNearestTurnWithinOneSecondElseToNobody() {
        let near = TranscriptSegment(text: "Yes.", startSeconds: 5.5, endSeconds: 6)
        let far = TranscriptSegment(text: "Later.", startSeconds: 20, endSeconds: 21)
        let labelled = SpeakerAttribution.label([near, far], turns: [Self.turn(0, 4.7, 1), Self.turn(6.8, 9, 2)])
        #expect(labelled.segments.map(\.speaker) == ["S1", nil])
        #expect(labelled.speakers == [Speaker(id: "S1")])
    }

    @Test func aSegmentIsSplitAtTheWordWhereTheVoiceChanges() {
        let segment = TranscriptSegment(
            text: "Is it ready? Yes, it is.", startSeconds: 0, endSeconds: 4,
            words: Self.words([("Is", 0.1, 0.3), ("it", 0.3, 0.5), ("ready?", 0.5, 1.1), ("Yes,", 2.0, 2.4), ("it", 2.5, 2.7), ("is.", 2.7, 3.5)]),
            language: "de")
        let labelled = SpeakerAttribution.label([segment], turns: [Self.turn(0, 1.3, 4), Self.turn(1.8, 3.8, 9)])
        #expect(labelled.segments == [
            TranscriptSegment(text: "Is it ready?", startSeconds: 0, endSeconds: 1.1,
                              words: Self.words([("Is", 0.1, 0.3), ("it", 0.3, 0.5), ("ready?", 0.5, 1.1)]), language: "de", speaker: "S1"),
            TranscriptSegment(text: "Yes, it is.", startSeconds: 2.0, endSeconds: 4,
                              words: Self.words([("Yes,", 2.0, 2.4), ("it", 2.5, 2.7), ("is.", 2.7, 3.5)]), language: "de", speaker: "S2"),
        ])
    }

    @Test func oneShortWordOfAnotherVoiceDoesNotSplitASegment() {
        let segment = TranscriptSegment(
            text: "We went home then.", startSeconds: 0, endSeconds: 3,
            words: Self.words([("We", 0.1, 0.4), ("went", 0.4, 0.8), ("home", 0.8, 1.2), ("then.", 1.2, 1.6)]))
        // "home" falls in a 0.4 s turn of voice 2 (kept: at least 0.3 s).
        let labelled = SpeakerAttribution.label([segment], turns: [Self.turn(0, 0.8, 1), Self.turn(0.8, 1.2, 2), Self.turn(1.2, 3, 1)])
        #expect(labelled.segments.count == 1)
        #expect(labelled.segments[0].speaker == "S1")
        #expect(labelled.segments[0].text == "We went home then.")
    }

    @Test func wordsThatDoNotSpellTheTextKeepTheSegmentWhole() {
        let segment = TranscriptSegment(text: "Edited by hand.", startSeconds: 0, endSeconds: 4,
                                        words: Self.words([("Edited", 0, 1), ("by", 2, 2.5), ("Anna.", 2.5, 3.9)]))
        let labelled = SpeakerAttribution.label([segment], turns: [Self.turn(0, 1.5, 1), Self.turn(1.5, 4, 2)])
        #expect(labelled.segments.map(\.text) == ["Edited by hand."])
        #expect(labelled.segments.map(\.speaker) == ["S1"])
    }

    @Test func theNamesOfAnEarlierTranscriptGoToTheVoiceThatSharesItsTime() {
        let previous = [
            TranscriptSegment(text: "a", startSeconds: 0, endSeconds: 4, speaker: "S1"),
            TranscriptSegment(text: "b", startSeconds: 5, endSeconds: 9, speaker: "S2"),
        ]
        // The new run finds a voice before both: the old S1 is now S2, the old S2 is now S3.
        let segments = [
            TranscriptSegment(text: "x", startSeconds: 0, endSeconds: 0.9),
            TranscriptSegment(text: "a", startSeconds: 1, endSeconds: 4),
            TranscriptSegment(text: "b", startSeconds: 5, endSeconds: 9),
        ]
        let labelled = SpeakerAttribution.label(segments, turns: [Self.turn(0, 0.95, 1), Self.turn(1, 4, 2), Self.turn(5, 9, 3)],
                                                previous: (previous, [Speaker(id: "S1", name: "Anna"), Speaker(id: "S2", name: "Ben")]))
        #expect(labelled.speakers == [Speaker(id: "S1"), Speaker(id: "S2", name: "Anna"), Speaker(id: "S3", name: "Ben")])
    }

    @Test func aSpeakerShowsItsNameElseItsNumber() {
        #expect(Speaker(id: "S2").displayName == "Speaker 2")
        #expect(Speaker(id: "S2", name: "Anna").displayName == "Anna")
        #expect(Speaker(id: "guest").displayName == "guest")
        #expect(Speaker.number(of: "S02") == nil)
    }

    @Test func speakersAreInTheJSONOnlyWhenLabelled() throws {
        let segment = TranscriptSegment(text: "Hi.", startSeconds: 0, endSeconds: 1, speaker: "S1")
        let json = String(decoding: try JSONEncoder.liveTranscriber.encode(segment), as: UTF8.self)
        #expect(json.contains("\"speaker\" : \"S1\""))
        let plain = String(decoding: try JSONEncoder.liveTranscriber.encode(TranscriptSegment(text: "Hi.", startSeconds: 0, endSeconds: 1)),
                           as: UTF8.self)
        #expect(!plain.contains("speaker"))
        let speaker = String(decoding: try JSONEncoder.liveTranscriber.encode(Speaker(id: "S1")), as: UTF8.self)
        #expect(speaker == "{\n  \"id\" : \"S1\",\n  \"name\" : null\n}")
        #expect(try JSONDecoder.liveTranscriber.decode(TranscriptSegment.self, from: Data(json.utf8)) == segment)
    }
}
