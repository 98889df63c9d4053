import Foundation
import LiveTranscriberCore
import Testing

extension LiveActivityTests {
    @Suite("Presentation text trimming")
    struct PresentationTextTests {
        @Test("keeps the newest characters and marks the cut with a leading ellipsis", arguments: [
            ("hello world", 20, "hello world"),
            ("hello world", 6, "…world"),
            ("hello world", 7, "…world"),  // the space after the cut is dropped
            ("abcdef", 1, "…"),
            ("abcdef", 0, ""),
            ("  padded  ", 10, "padded"),
            ("ab👨‍👩‍👧‍👦", 2, "…👨‍👩‍👧‍👦"),   // a family emoji is one character
            ("go 🇯🇵🇫🇷", 3, "…🇯🇵🇫🇷"),        // flags stay whole
            ("ok 👍🏽👍🏿", 2, "…👍🏿"),          // skin tone stays on its hand
            ("cafe\u{301} cre\u{300}me", 5, "…rème"), // combining accents stay on their letters
            ("这是一个测试句子", 4, "…试句子"),
        ])
        func suffix(text: String, limit: Int, expected: String) {
            let result = PresentationText.suffix(text, maxCharacters: limit)
            #expect(result == expected)
            #expect(result.count <= max(0, limit))
        }

        @Test("a cut never leaves a lone combining accent or half a flag")
        func noHalves() {
            let text = String(repeating: "e\u{301}🇯🇵👍🏽", count: 50)
            for limit in 1...40 {
                let result = PresentationText.suffix(text, maxCharacters: limit)
                #expect(result.count <= limit)
                let body = result.drop(while: { $0 == "…" })
                #expect(body.allSatisfy { ["e\u{301}", "🇯🇵", "👍🏽"].contains($0) })
                #expect(text.hasSuffix(String(body)))
            }
        }

        @Test("prefix keeps the start and marks the cut at the end", arguments: [
            ("Weekly standup", 20, "Weekly standup"), ("Weekly standup", 8, "Weekly…"), ("🇯🇵🇫🇷🇩🇪", 2, "🇯🇵…"),
        ])
        func prefix(text: String, limit: Int, expected: String) {
            #expect(PresentationText.prefix(text, maxCharacters: limit) == expected)
        }

        @Test("trailing lines keeps the newest lines, then the character limit")
        func trailingLines() {
            let text = "one\ntwo\r\nthree\n\nfour"
            #expect(PresentationText.trailingLines(text, maxLines: 2, maxCharacters: 220) == "…three\nfour")
            #expect(PresentationText.trailingLines(text, maxLines: 5, maxCharacters: 220) == "one\ntwo\nthree\nfour")
            #expect(PresentationText.trailingLines(text, maxLines: 2, maxCharacters: 6) == "…four")
            #expect(PresentationText.trailingLines(text, maxLines: 0, maxCharacters: 6) == "")
        }

        @Test("the transcript suffix joins final lines and caps them at 700 characters")
        func transcriptSuffix() {
            let finals = Fixture.segments("First.", "  ", "Second line. ", "Third.")
            #expect(PresentationText.transcriptSuffix(finals, maxCharacters: 700) == "First.\nSecond line.\nThird.")
            let long = (0..<100).map { _ in String(repeating: "word ", count: 10) }
            let result = PresentationText.transcriptSuffix(long.map { TranscriptSegment(text: $0, startSeconds: 0, endSeconds: 1) },
                                                           maxCharacters: 700)
            #expect(result.count == 700)
            #expect(result.hasPrefix("…"))
            #expect(result.hasSuffix("word word"))
        }
    }
}
