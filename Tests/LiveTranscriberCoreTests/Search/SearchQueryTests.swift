import Foundation
import LiveTranscriberCore
import Testing

@Suite("SearchQuery")
struct SearchQueryTests {
    static func describe(_ query: SearchQuery) -> [String] {
        query.terms.map { $0.tokens.joined(separator: " ") + ($0.isPrefix ? "*" : "") }
    }

    @Test("words are folded into tokens; a word of several tokens is a phrase; the last word is a prefix",
          arguments: [
            ("Café meeting", ["cafe", "meeting*"]),
            ("CAFÉ", ["cafe*"]),
            ("multi-agent", ["multi agent*"]),
            ("don't", ["don t"]),
            ("AT&T", ["at t"]),
            ("20.04", ["20 04*"]),
            ("AND", ["and*"]),
            ("NOT near(", ["not", "near*"]),
            ("say\"hi\"", ["say hi*"]),
            ("a", ["a"]),
            ("the the", ["the", "the*"]),
          ])
    func terms(input: String, expected: [String]) {
        #expect(Self.describe(SearchQuery(input)) == expected)
    }

    @Test("input with no letters or digits is empty", arguments: ["", "   ", "*", "\"", "(", "- & ) :", "\"\""])
    func emptyQueries(input: String) {
        #expect(SearchQuery(input).isEmpty)
    }

    @Test("every CJK character is its own token, so a CJK word is a phrase of characters",
          arguments: [
            ("悬空引用", ["悬 空 引 用"]),
            ("悬空", ["悬 空"]),
            ("空", ["空"]),
            ("会議 です", ["会 議", "で す"]),
            ("회의록", ["회 의 록"]),
            ("50条悬空引用", ["50 条 悬 空 引 用"]),
            ("用Swift", ["用 swift*"]),
          ])
    func cjk(input: String, expected: [String]) {
        #expect(Self.describe(SearchQuery(input)) == expected)
    }

    @Test("folding removes case and diacritics", arguments: [("CAFÉ", "cafe"), ("Ångström", "angstrom"), ("naïve", "naive"), ("悬空", "悬空")])
    func folding(input: String, expected: String) {
        #expect(SearchQuery.fold(input) == expected)
    }

    @Test("a term finds its occurrences at token starts; a prefix term also inside longer tokens")
    func occurrences() {
        let text = "Meeting about the meet-up; we meet"
        let tokens = SearchText.tokens(in: text)
        let exact = SearchTerm(tokens: ["meet"], isPrefix: false).occurrences(in: tokens).map { String(text[$0]) }
        let prefix = SearchTerm(tokens: ["meet"], isPrefix: true).occurrences(in: tokens).map { String(text[$0]) }
        let phrase = SearchTerm(tokens: ["meet", "up"], isPrefix: false).occurrences(in: tokens).map { String(text[$0]) }
        #expect(exact == ["meet", "meet"])
        #expect(prefix == ["Meeting", "meet", "meet"])
        #expect(phrase == ["meet-up"])
    }
}

@Suite("SearchSnippet")
struct SearchSnippetTests {
    @Test("marks every match and cuts around the first with an ellipsis")
    func marks() {
        #expect(SearchSnippet.mark("我们发现50条悬空引用需要修复", query: SearchQuery("悬空"), radius: 3) == "…50条\u{2}悬空\u{3}引用需…")
        #expect(SearchSnippet.mark("Café and CAFE", query: SearchQuery("cafe")) == "\u{2}Café\u{3} and \u{2}CAFE\u{3}")
        #expect(SearchSnippet.mark("short", query: SearchQuery("zzz")) == "short")
    }

    static let late = "…things before we finally agreed on the \u{2}budget\u{3} for marketing"

    @Test("fit cuts a marked snippet to a width around its first match, … on each side cut", arguments: [
        (late, 20, 0, "…n the \u{2}budget\u{3} for m…"),  // a late match is kept, the text shared on both sides
        (late, 20, 1, "…the \u{2}budget\u{3} for…"),  // shown as [budget]: the marks take a column each
        (late, 100, 0, late),  // it fits: unchanged
        ("we agreed on the \u{2}budget\u{3}", 12, 0, "…the \u{2}budget\u{3}"),  // only the cut side gets …
        ("\u{2}Budget\u{3} talks for the whole of next year", 12, 0, "\u{2}Budget\u{3} talk…"),
        ("a long text without any match at all", 10, 0, "a long te…"),  // no match: the end is cut
        ("…some \u{2}extraordinarily\u{3} long", 8, 0, "…\u{2}extrao\u{3}…"),  // the match alone is too wide
        ("\u{2}a\u{3} b \u{2}cdefgh\u{3} ijk", 7, 0, "\u{2}a\u{3} b \u{2}cd\u{3}…"),  // a later match cut in two stays closed
        ("我们发现50条\u{2}悬空\u{3}引用需要修复", 10, 0, "…条\u{2}悬空\u{3}引…"),  // CJK characters take two columns
    ])
    func fit(marked: String, width: Int, markColumns: Int, expected: String) {
        #expect(SearchSnippet.fit(marked, width: width, markColumns: markColumns) == expected)
        let shown = expected.replacingOccurrences(of: "\u{2}", with: markColumns == 1 ? "[" : "")
            .replacingOccurrences(of: "\u{3}", with: markColumns == 1 ? "]" : "")
        #expect(CharacterWidth.columns(of: shown) <= width)
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
        let query = SearchQuery((1...40).map { "word\($0)" }.joined(separator: " ") + " 悬空")
        #expect(query.terms.count == 32)
        #expect(query.terms.last == SearchTerm(tokens: ["word32"], isPrefix: true))
    }

    @Test("the index text is folded tokens; each CJK character stands alone; ASCII is only lowercased", arguments: [
        ("我们用Swift开发", "我 们 用 swift 开 发"),
        ("今天我们发现50条悬空引用", "今 天 我 们 发 现 50 条 悬 空 引 用"),
        ("「Swift」と言った", "swift と 言 っ た"),
        ("Plain English, no change", "plain english, no change"),
        ("Café CRÈME", "cafe creme"),
    ])
    func indexText(text: String, expected: String) {
        #expect(SearchText.indexText(text) == expected)
    }
    @Test("a marked snippet splits into runs of text and matches, marks dropped, for drawing matches in bold")
    func snippetRuns() {
        func runs(_ marked: String) -> [String] { SearchSnippet.runs(marked).map { $0.isMatch ? "<\($0.text)>" : $0.text } }
        #expect(runs("the \u{2}budget\u{3} for \u{2}2027\u{3}") == ["the ", "<budget>", " for ", "<2027>"])
        #expect(runs("\u{2}悬空\u{3}引用") == ["<悬空>", "引用"])
        #expect(runs("…n the \u{2}budg") == ["…n the ", "<budg>"])  // cut inside a match by `fit`
        #expect(runs("plain [1] text") == ["plain [1] text"])
        #expect(runs("").isEmpty)
        let fitted = SearchSnippet.fit("…things before we finally agreed on the \u{2}budget\u{3} for marketing", width: 20)
        #expect(runs(fitted) == ["…n the ", "<budget>", " for m…"])
    }
}
