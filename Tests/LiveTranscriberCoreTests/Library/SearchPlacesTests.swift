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

    @Test("an ASCII text is counted without tokenizing only when it cannot hold a term's bytes, in any case")
    func asciiPrefilter() {
        #expect(SearchPlaces.asciiTokenCount("nothing here, at all", unlessItMayHold: [Array("meet".utf8)]) == 4)
        #expect(SearchPlaces.asciiTokenCount("The MEETING starts", unlessItMayHold: [Array("meet".utf8)]) == nil)
        #expect(SearchPlaces.asciiTokenCount("Café", unlessItMayHold: [Array("zzz".utf8)]) == nil)
        #expect(SearchPlaces.asciiTokenCount("no CJK here", unlessItMayHold: [Array("数".utf8)]) == 3)
        #expect(SearchPlaces.asciiTokenCount("", unlessItMayHold: [Array("a".utf8)]) == 0)
    }
}
