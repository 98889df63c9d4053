import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import Testing

extension LiveActivityTests {
    @Suite("Terminal columns")
    struct TerminalTextTests {
        @Test("wide characters take two columns", arguments: [
            ("abc", 3), ("语言", 4), ("👍🏽", 2), ("🇯🇵", 2), ("e\u{301}", 1), ("", 0),
        ])
        func columns(text: String, expected: Int) {
            #expect(TerminalText.columns(of: text) == expected)
        }

        @Test("cuts keep whole characters and drop the space after the mark", arguments: [
            ("hello brave world", 7, "…world"), ("hello brave world", 8, "…e world"), ("语言模型", 5, "…模型"), ("short", 10, "short"),
        ])
        func suffix(text: String, width: Int, expected: String) {
            #expect(TerminalText.suffix(text, width: width) == expected)
        }

        @Test("wrapping breaks at spaces, and inside a word only when it is wider than a row")
        func wrap() {
            #expect(TerminalText.wrap("one two three", width: 7) == ["one two", "three"])
            #expect(TerminalText.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
            #expect(TerminalText.wrap("语言模型", width: 3) == ["语", "言", "模", "型"])
        }
    }
}
