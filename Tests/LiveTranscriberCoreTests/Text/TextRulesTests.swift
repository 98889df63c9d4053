import Foundation
import LiveTranscriberCore
import Testing

@Suite("One text rule each: folding, scripts, widths, visible text")
struct TextRulesTests {
    @Test("search folding: a letter matches the plain form users type for it", arguments: [
        ("Straße", "strasse"), ("STRASSE", "strasse"), ("ẞ", "ss"), ("Fußball", "fussball"), ("FUSSBALL", "fussball"),
        ("Café", "cafe"), ("Æsir", "aesir"), ("œuvre", "oeuvre"), ("Ørsted", "orsted"), ("Łódź", "lodz"),
        ("Đorđe", "dorde"), ("Þór", "thor"), ("ﬁne", "fine"), ("ＡＢＣ１", "abc1"), ("İstanbul", "istanbul"),
        ("Cafe\u{301}", "cafe"), ("我们用Swift", "我们用swift"), ("plain ascii 42", "plain ascii 42"),
    ])
    func searchKey(input: String, expected: String) {
        #expect(TextFolding.searchKey(input) == expected)
        #expect(SearchQuery.fold(input) == expected)
    }

    @Test("a query folds the way the index folds: every spelling of Straße gives the same term")
    func queryAndIndexAgree() {
        let indexed = SearchText.indexText("Straße Planung")
        #expect(indexed == "strasse planung")
        for query in ["Straße", "strasse", "STRASSE", "STRAẞE"] {
            #expect(SearchQuery(query).terms == [SearchTerm(tokens: ["strasse"], isPrefix: true)])
        }
    }

    @Test("snippet marks are found with the same fold and mark the original text")
    func snippetMarks() {
        #expect(SearchSnippet.mark("Straße Planung", query: SearchQuery("strasse")) == "\u{2}Straße\u{3} Planung")
        #expect(SearchSnippet.mark("we discussed the planner", query: SearchQuery("plan")) == "we discussed the \u{2}planner\u{3}")
        #expect(SearchSnippet.mark("Fußball heute", query: SearchQuery("FUSS")) == "\u{2}Fußball\u{3} heute")
        #expect(SearchSnippet.mark("我们用Swift开发", query: SearchQuery("swift")) == "我们用\u{2}Swift\u{3}开发")
    }

    @Test("tag identity folds case fully but keeps accents")
    func caseKey() {
        #expect(TextFolding.caseKey("Fußball") == TextFolding.caseKey("FUSSBALL"))
        #expect(TextFolding.caseKey("Work") == "work")
        #expect(TextFolding.caseKey("Café") != TextFolding.caseKey("Cafe"))
    }

    @Test("one script table", arguments: [
        ("中", TextScript.han), ("〇", .han), ("𠀋", .han), ("あ", .hiragana), ("カ", .katakana), ("ｶ", .katakana),
        ("한", .hangul), ("。", .cjkSymbol), ("Ａ", .cjkSymbol),
    ] as [(Unicode.Scalar, TextScript)])
    func scripts(scalar: Unicode.Scalar, script: TextScript) {
        #expect(TextScript.of(scalar) == script)
        #expect(SearchQuery.isCJK(scalar))
    }

    @Test("the fast paths' common CJK letters are letters of the one script table, and the scalars just outside them are not common letters")
    func commonLetters() {
        let ranges: [(ClosedRange<UInt32>, TextScript)] = [
            (0x4E00...0x9FFF, .han), (0x3041...0x3096, .hiragana), (0x30A1...0x30FA, .katakana), (0xAC00...0xD7A3, .hangul),
        ]
        for (range, script) in ranges {
            let disagreeing = range.filter { TextScript.of(Unicode.Scalar($0)!) != script || !TextScript.isCommonLetter($0) }
            #expect(disagreeing.isEmpty, "\(script): \(disagreeing.prefix(3).map { String($0, radix: 16) })")
        }
        for outside: UInt32 in [0x4DFF, 0xA000, 0x3040, 0x3097, 0x30A0, 0x30FB, 0xABFF, 0xD7A4, 0x41, 0xE9] {
            #expect(!TextScript.isCommonLetter(outside), "U+\(String(outside, radix: 16))")
        }
    }

    @Test("Latin, Cyrillic, digits and emoji are not CJK")
    func notCJK() {
        for scalar in ["a", "Ж", "5", "❤", "😀"] as [Unicode.Scalar] {
            #expect(TextScript.of(scalar) == nil)
        }
        #expect(WritingScript.of("中") == .han)
        #expect(WritingScript.of("カ") == .kana)
        #expect(WritingScript.of("한") == .hangul)
        #expect(WritingScript.of("。") == nil)
    }

    @Test("one width table: terminal columns per character", arguments: [
        ("a", 1), ("é", 1), ("中", 2), ("한", 2), ("ｶ", 1), ("Ａ", 2), ("❤️", 2), ("❤", 1), ("😀", 2),
        ("👨‍👩‍👧", 2), ("🇫🇷", 2), ("\u{200B}", 0), ("\u{202E}", 0), ("\u{1B}", 0), ("e\u{301}", 1),
    ] as [(Character, Int)])
    func widths(character: Character, columns: Int) {
        #expect(CharacterWidth.columns(of: character) == columns)
    }

    @Test("a text's width is the sum of its characters' widths, for every ASCII byte and for mixed text")
    func textWidths() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(CharacterWidth.columns(of: ascii) == 95)  // 0x20…0x7E; controls and DEL are 0
        #expect(CharacterWidth.columns(of: ascii) == ascii.reduce(0) { $0 + CharacterWidth.columns(of: $1) })
        #expect(CharacterWidth.columns(of: "line\r\nnext") == 8)
        #expect(CharacterWidth.columns(of: "plain Café 中文 👨‍👩‍👧") == 18)
        #expect(CharacterWidth.columns(of: "name"[...]) == 4)
        // Characters that start with an ASCII byte or mix ASCII into other scripts.
        let mixed = ["#\u{FE0F}\u{20E3} keycap", "e\u{301}te", "…the meeting…", "a\u{0600}b", "\r\n\u{301}x", "中文abc中", "x🇫🇷y",
                     "1\u{FE0F}\u{20E3}2", "\u{1B}[2J", "ab\r\ncd", "\u{200D}a", "a\u{200D}b",
                     // CJK runs counted two columns a scalar, and what may join a CJK scalar into a longer character.
                     "数据模型", "a会议b记录", "か\u{3099}き", "가\u{11A8}나", "中\u{FE0F}文", "中\u{0903}文", "中\u{200D}😀",
                     "ひらがなカタカナ한국어", "测", "x测", "测x"]
        for text in mixed {
            #expect(CharacterWidth.columns(of: text) == text.reduce(0) { $0 + CharacterWidth.columns(of: $1) }, "\(text.debugDescription)")
        }
        #expect(CharacterWidth.columns(of: "#\u{FE0F}\u{20E3} keycap") == 9)
        #expect(CharacterWidth.columns(of: "a会议b记录") == 10)
        #expect(CharacterWidth.columns(of: "中\u{0903}文") == 4)  // a spacing mark joins 中 into one 2-column character
    }

    @Test("control and invisible format characters are shown as escapes", arguments: [
        ("talk\u{1B}[2J.wav", "talk\\u{1B}[2J.wav"),
        ("evil\u{202E}vaw.exe", "evil\\u{202E}vaw.exe"),
        ("bell\u{7}", "bell\\u{7}"),
        ("zero\u{200B}width", "zero\\u{200B}width"),
        ("plain Café 中文", "plain Café 中文"),
        ("👨‍👩‍👧 family", "👨‍👩‍👧 family"),
        ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"),
        ("a\u{E0041}b", "a\\u{E0041}b"),
    ])
    func visible(input: String, expected: String) {
        #expect(VisibleText.escaped(input) == expected)
    }

    @Test("multi-line text keeps its line breaks and tabs, and escapes the rest")
    func visibleLines() {
        #expect(VisibleText.escapedKeepingLines("one\ttwo\nthree\u{1B}]0;x\u{7}") == "one\ttwo\nthree\\u{1B}]0;x\\u{7}")
    }

    @Test("one plural rule")
    func plural() {
        #expect(Plural.count(0, "segment") == "0 segments")
        #expect(Plural.count(1, "segment") == "1 segment")
        #expect(Plural.count(2, "match", "matches") == "2 matches")
    }

    @Test("one JSON printer: sorted keys, ISO dates, slashes unescaped")
    func json() throws {
        struct Sample: Encodable { var path = "a/b"; var at = Date(timeIntervalSince1970: 0); var count = 1 }
        #expect(try JSONText.string(Sample()) == "{\n  \"at\" : \"1970-01-01T00:00:00Z\",\n  \"count\" : 1,\n  \"path\" : \"a/b\"\n}")
    }
}
