import Foundation
@testable import LiveTranscriberCore
import Testing

@Suite("SearchPlaces")
struct SearchPlacesTests {
    static let recording = Recording(id: "20261201-101500-abcd", name: "Weekly sync", createdAt: Date(timeIntervalSince1970: 0),
                                     durationSeconds: 60, language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))

    @Test("segments skipped without tokenizing count the same places and lengths as tokenized ones",
          arguments: ["meeting", "MEET", "meet-ing", "café", "数据", "don't", "the gard"])
    func skippedSegmentsAgree(query text: String) {
        let texts = ["The MEETING starts", "nothing here at all", "a meet-ing, then the garden", "Café meeting notes",
                     "数据会议", "don't stop", "", "meetinghouse", "x"]
        let segments = texts.enumerated().map { SearchPlaces.Segment(startSeconds: Double($0.offset), text: $0.element) }
        let query = SearchQuery(text)
        let found = SearchPlaces.find(query, recording: Self.recording, segments: segments, limit: 20)
        // What examining every segment token by token finds.
        var matching = 0
        var length = 0
        for segment in texts {
            let list = SearchText.TokenList(segment)
            length += list.count
            if query.terms.contains(where: { !$0.occurrences(in: list, bytes: $0.tokens.map { Array($0.utf8) }).isEmpty }) { matching += 1 }
        }
        #expect(found.matchingSegments == matching)
        #expect(found.statistics.lengths[.transcript] == length)
    }

    @Test("plain text (ASCII and CJK characters) read from its bytes gives the same occurrences as its token list",
          arguments: ["the", "meet", "meet-ing", "a a", "at&t", "don't", "20.04", "x", "THE gard", "数", "multi agent plan",
                      "数据", "用swift", "swift开", "会议记录", "据 模", "の", "한국"])
    func plainOccurrencesAgree(query text: String) {
        let texts = ["The MEETING starts", "the the the", "a a a a", "AT&T and at t", "don't stop, dont", "version 20.04.1",
                     "x-x x", "meet-ing meeting-house meet", "", "---", "the garden, The Gardener", "multi-agent plan; multi agent planning",
                     "trailing the", "theme", "我们用Swift开发", "数据 模型, 数据!数据", "会议记录：下周计划", "数据据模", "ひらがなの本",
                     "한국어 한국", "用 swift 开", "“数据”（测试）"]
        for term in SearchQuery(text).terms {
            let tokens = term.tokens.map { Array($0.utf8) }
            for sample in texts {
                let expected = term.occurrences(in: SearchText.TokenList(sample), bytes: tokens)
                var copy = sample
                let found = copy.withUTF8 { SearchPlaces.plainOccurrences(of: tokens, isPrefix: term.isPrefix, in: $0) }
                #expect(found?.map { [$0.start, $0.end] } == expected.map { [$0.start, $0.end] }, "\(text) in \(sample.debugDescription)")
            }
        }
        var sample = "the garden, The Gardener"
        #expect(sample.withUTF8 { SearchPlaces.plainOccurrences(of: [Array("the".utf8), Array("gard".utf8)], isPrefix: true, in: $0) }
            .map { $0.map { [$0.start, $0.end] } } == [[0, 10], [12, 24]])
        var chinese = "数据 模型, 数据!"
        #expect(chinese.withUTF8 { SearchPlaces.plainOccurrences(of: [Array("数".utf8), Array("据".utf8)], isPrefix: false, in: $0) }
            .map { $0.map { [$0.start, $0.end] } } == [[0, 6], [15, 21]])
        // Not plain: é and a full-width letter fold, so the token list must read them.
        for other in ["Café the", "the ｍｅｅｔ 数据"] {
            var text = other
            #expect(text.withUTF8 { SearchPlaces.plainOccurrences(of: [Array("the".utf8)], isPrefix: false, in: $0) } == nil)
        }
    }

    @Test("with placing terms, a field or segment holding only the other terms is no place, though they are still marked")
    func placingTerms() {
        var recording = Self.recording
        recording.name = "The walk"
        let segments = ["the lake", "the garden", "a garden", "the end"].enumerated().map {
            SearchPlaces.Segment(startSeconds: Double($0.offset * 10), text: $0.element)
        }
        let query = SearchQuery("the garden")
        let placed = SearchPlaces.find(query, recording: recording, segments: segments, limit: 5, measuring: false, placing: [1])
        #expect(placed.hits.map(\.startSeconds) == [10, 20])
        #expect(placed.hits.map(\.markedSnippet) == ["\u{2}the\u{3} \u{2}garden\u{3}", "a \u{2}garden\u{3}"])
        #expect(placed.matchingSegments == 2)
        let every = SearchPlaces.find(query, recording: recording, segments: segments, limit: 5, measuring: false)
        #expect(every.hits.map(\.field) == [.name, .transcript, .transcript, .transcript, .transcript])
        #expect(every.matchingSegments == 4)
        #expect(SearchPlaces.Screen(query, terms: [1]).mayHold("the lake") == false)
    }

    @Test("the screen rules a text out only when its bytes lack a term's folded tokens and it has no foldable letter outside ASCII")
    func screen() {
        let meet = SearchPlaces.Screen(SearchQuery("meet"))
        #expect(meet.mayHold("nothing here, at all") == false)
        #expect(meet.mayHold("The MEETING starts") == true)
        #expect(meet.mayHold("Café") == true)  // é is a letter that folds: always let through
        #expect(meet.mayHold("会议 no English word") == false)  // CJK characters are kept as they are
        #expect(meet.mayHold("") == false)
        let cjk = SearchPlaces.Screen(SearchQuery("数据"))
        #expect(cjk.mayHold("no CJK here") == false)
        #expect(cjk.mayHold("数模型据") == true)  // every token present; whether they are next to each other is examined later
        #expect(cjk.mayHold("模型测试") == false)
        // Decomposed text (jamo, か + U+3099) is searched composed: its bytes rule nothing out.
        #expect(SearchPlaces.Screen(SearchQuery("회의")).mayHold("회의".decomposedStringWithCanonicalMapping) == true)
        #expect(SearchPlaces.Screen(SearchQuery("がっこう")).mayHold("がっこう".decomposedStringWithCanonicalMapping) == true)
        // A term of two tokens needs both; a query needs any one term.
        let twoTerms = SearchPlaces.Screen(SearchQuery("multi-agent budget"))
        #expect(twoTerms.mayHold("a multi plan") == false)
        #expect(twoTerms.mayHold("MULTI and AGENT") == true)
        #expect(twoTerms.mayHold("the Budget") == true)
    }

    @Test("without measuring, passing only the segments the screen lets through gives the same places and counts",
          arguments: ["meeting", "MEET", "meet-ing", "café", "数据", "数", "don't", "the gard", "Ｍeeting"])
    func screenedSegmentsAgree(query text: String) {
        let texts = ["The MEETING starts", "nothing here at all", "a meet-ing, then the garden", "Café meeting notes",
                     "数据会议", "会议数 据", "don't stop", "", "ｍｅｅｔｉｎｇ", "meetinghouse", "x"]
        let segments = texts.enumerated().map { SearchPlaces.Segment(startSeconds: Double($0.offset), text: $0.element) }
        let query = SearchQuery(text)
        let screen = SearchPlaces.Screen(query)
        let everything = SearchPlaces.find(query, recording: Self.recording, segments: segments, limit: 20)
        let screened = SearchPlaces.find(query, recording: Self.recording, segments: segments.filter { screen.mayHold($0.text) },
                                         limit: 20, measuring: false)
        #expect(screened.hits == everything.hits)
        #expect(screened.matchingSegments == everything.matchingSegments)
        #expect(screened.matchedTerms == everything.matchedTerms)
        #expect(screened.statistics == SearchScore.Statistics())
    }
}
