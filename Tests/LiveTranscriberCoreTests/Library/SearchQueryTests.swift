import Foundation
import LiveTranscriberCore
import Testing

@Suite("SearchQuery")
struct SearchQueryTests {
    @Test("words are folded and quoted as prefix phrases; operators become text",
          arguments: [
            ("Café meeting", "\"cafe\"* AND \"meeting\"*"),
            ("CAFÉ", "\"cafe\"*"),
            ("multi-agent", "\"multi-agent\"*"),
            ("don't", "\"don't\"*"),
            ("AT&T", "\"at&t\"*"),
            ("20.04", "\"20.04\"*"),
            ("AND", "\"and\"*"),
            ("NOT near(", "\"not\"* AND \"near(\"*"),
            ("say\"hi\"", "\"say\"\"hi\"\"\"*"),
          ])
    func wordExpressions(input: String, expected: String) {
        let query = SearchQuery(input)
        #expect(query.wordMatchExpression == expected)
        #expect(query.substrings == [])
    }

    @Test("input with no letters or digits is empty", arguments: ["", "   ", "*", "\"", "(", "- & ) :", "\"\""])
    func emptyQueries(input: String) {
        let query = SearchQuery(input)
        #expect(query.isEmpty)
        #expect(query.wordMatchExpression == nil)
        #expect(query.trigramMatchExpression == nil)
    }

    @Test("CJK words are substrings: 3+ characters for the trigram index, 1-2 for a scan",
          arguments: [
            ("悬空引用", "\"悬空引用\"", [String]()),
            ("悬空", nil, ["悬空"]),
            ("空", nil, ["空"]),
            ("会議 です", nil, ["会議", "です"]),
            ("회의록", "\"회의록\"", []),
            ("50条悬空引用", "\"50条悬空引用\"", []),
          ])
    func cjk(input: String, trigram: String?, short: [String]) {
        let query = SearchQuery(input)
        #expect(query.wordMatchExpression == nil)
        #expect(query.trigramMatchExpression == trigram)
        #expect(query.shortSubstrings == short)
    }

    @Test("folding removes case and diacritics", arguments: [("CAFÉ", "cafe"), ("Ångström", "angstrom"), ("naïve", "naive"), ("悬空", "悬空")])
    func folding(input: String, expected: String) {
        #expect(SearchQuery.fold(input) == expected)
    }
}

@Suite("SearchSnippet")
struct SearchSnippetTests {
    @Test("marks every match and cuts around the first with an ellipsis")
    func marks() {
        #expect(SearchSnippet.mark("我们发现50条悬空引用需要修复", substrings: ["悬空"], radius: 3) == "…50条\u{2}悬空\u{3}引用需…")
        #expect(SearchSnippet.mark("Café and CAFE", substrings: ["cafe"]) == "\u{2}Café\u{3} and \u{2}CAFE\u{3}")
        #expect(SearchSnippet.mark("short", substrings: ["zzz"]) == "short")
    }
}

@Suite("LibraryFormat")
struct LibraryFormatTests {
    @Test("clock times are m:ss, h:mm:ss from an hour, truncated",
          arguments: [(0.0, "0:00"), (5.9, "0:05"), (62.5, "1:02"), (600, "10:00"), (3_725, "1:02:05"), (-3, "0:00"), (.nan, "0:00")])
    func clock(seconds: Double, expected: String) {
        #expect(ElapsedTimeFormat.clock(seconds) == expected)
    }

    @Test("the default name is the date and minute in the given time zone")
    func defaultName() {
        let date = Date(timeIntervalSince1970: 1_795_984_872)  // 2026-11-29 20:41:12 UTC
        #expect(RecordingName.defaultName(createdAt: date, timeZone: TimeZone(identifier: "UTC")!) == "Recording 2026-11-29 20:41")
        #expect(RecordingName.defaultName(createdAt: date, timeZone: TimeZone(identifier: "Asia/Tokyo")!) == "Recording 2026-11-30 05:41")
    }
}

@Suite("SearchQuery limits")
struct SearchQueryLimitTests {
    @Test("at most 32 words are used")
    func cap() {
        let query = SearchQuery(Array(repeating: "word", count: 40).joined(separator: " ") + " 悬空")
        #expect(query.words.count == 32)
        #expect(query.substrings == [])
    }

    @Test("a space goes where CJK meets Latin letters or digits, nowhere else", arguments: [
        ("我们用Swift开发", "我们用 Swift 开发"),
        ("今天我们发现50条悬空引用", "今天我们发现 50 条悬空引用"),
        ("会議はZoomで", "会議は Zoom で"),
        ("「Swift」と言った", "「Swift」と言った"),
        ("plain English, no change", "plain English, no change"),
        ("我们 用 Swift", "我们 用 Swift"),
    ])
    func separatingScripts(text: String, expected: String) {
        #expect(SearchQuery.separatingScripts(text) == expected)
    }
}
