import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Segment sanitizer")
struct SegmentSanitizerTests {
    static func s(_ text: String, _ start: Double, _ end: Double) -> TranscriptSegment {
        TranscriptSegment(text: text, startSeconds: start, endSeconds: end)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: [TranscriptSegment]
        var expected: [TranscriptSegment]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an end before its start becomes the start, as live", input: [s("a", 5, 3)], expected: [s("a", 5, 5)]),
        Case(name: "an overlap ends the earlier segment where the later starts",
             input: [s("a", 0, 4), s("b", 3, 6)], expected: [s("a", 0, 3), s("b", 3, 6)]),
        Case(name: "equal starts push the later segment after the earlier",
             input: [s("a", 1, 2), s("b", 1, 3)], expected: [s("a", 1, 2), s("b", 2, 3)]),
        Case(name: "a segment inside another starts after it and keeps a zero span at worst",
             input: [s("a", 1, 5), s("b", 1, 2)], expected: [s("b", 1, 2), s("a", 2, 5)]),
        Case(name: "exact duplicates are dropped", input: [s("a", 0, 1), s("a", 0, 1)], expected: [s("a", 0, 1)]),
        Case(name: "same text at another time is kept", input: [s("a", 0, 1), s("a", 1, 2)], expected: [s("a", 0, 1), s("a", 1, 2)]),
        Case(name: "empty and blank text is dropped", input: [s("", 0, 1), s(" \n\t", 1, 2), s("x", 2, 3)], expected: [s("x", 2, 3)]),
        Case(name: "text is trimmed", input: [s("  x  \n", 0, 1)], expected: [s("x", 0, 1)]),
        Case(name: "NaN start becomes 0, NaN end becomes the start",
             input: [s("a", .nan, 2), s("b", 3, .nan)], expected: [s("a", 0, 2), s("b", 3, 3)]),
        Case(name: "negative times become 0", input: [s("a", -2, -1)], expected: [s("a", 0, 0)]),
        Case(name: "infinite times never trap", input: [s("a", .infinity, -.infinity)], expected: [s("a", 0, 0)]),
        Case(name: "unordered input is sorted by start",
             input: [s("b", 2, 3), s("a", 0, 1)], expected: [s("a", 0, 1), s("b", 2, 3)]),
    ]

    @Test("repairs, orders, dedupes and drops", arguments: cases)
    func sanitize(testCase: Case) {
        #expect(SegmentSanitizer.sanitize(testCase.input) == testCase.expected)
    }

    @Test("the result is ordered and never overlaps, whatever the input")
    func invariant() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let special: [Double] = [.nan, -1, .infinity, -.infinity]
            let input = (0..<8).map { index -> TranscriptSegment in
                let a = generator.next() % 6 == 0 ? special[Int(generator.next() % 4)] : Double(generator.next() % 100) / 10
                let b = generator.next() % 6 == 0 ? special[Int(generator.next() % 4)] : Double(generator.next() % 100) / 10
                return Self.s(generator.next() % 9 == 0 ? " " : "t\(index % 3)", a, b)
            }
            let output = SegmentSanitizer.sanitize(input)
            for segment in output {
                #expect(segment.startSeconds.isFinite && segment.endSeconds.isFinite)
                #expect(0 <= segment.startSeconds && segment.startSeconds <= segment.endSeconds)
            }
            for (a, b) in zip(output, output.dropFirst()) {
                #expect(a.endSeconds <= b.startSeconds, "\(a) overlaps \(b)")
            }
        }
    }
}
