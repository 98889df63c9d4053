import Foundation

/// Lays a transcript text that has no timestamps over segments that do.
///
/// Used when a cloud model returns only text (gpt-4o-transcribe): the local segments keep their
/// times and receive the new text in order, each a share proportional to its duration. The text is
/// cut into units: words where words are separated by spaces, single characters in Chinese and
/// Japanese (Han and Kana); spacing between units is kept as it was. Segments whose share rounds to
/// nothing are dropped. Word timings are dropped (they belonged to the old text).
public enum TranscriptAligner {
    /// `text` distributed over `segments` (sanitized first).
    ///
    /// - Parameters:
    ///   - text: The new transcript text.
    ///   - segments: Segments whose times are kept.
    ///   - fallbackSpan: Start and end seconds of a single segment used when `segments` is empty.
    /// - Returns: Segments with the new text; empty when `text` has none.
    public static func distribute(_ text: String, over segments: [TranscriptSegment], fallbackSpan: (Double, Double)) -> [TranscriptSegment] {
        let units = self.units(of: text)
        guard !units.isEmpty else { return [] }
        let segments = SegmentSanitizer.sanitize(segments)
        guard !segments.isEmpty else {
            return [TranscriptSegment(text: join(units[...]), startSeconds: fallbackSpan.0, endSeconds: max(fallbackSpan.0, fallbackSpan.1))]
        }
        let durations = segments.map(\.durationSeconds)
        let total = durations.reduce(0, +)
        let weights = total > 0 ? durations : Array(repeating: 1.0, count: segments.count)
        let weightTotal = weights.reduce(0, +)
        var result: [TranscriptSegment] = []
        var cumulative = 0.0
        var lower = 0
        for (index, segment) in segments.enumerated() {
            cumulative += weights[index]
            let upper = index == segments.count - 1
                ? units.count
                : min(units.count, Int((Double(units.count) * cumulative / weightTotal).rounded()))
            if upper > lower {
                result.append(TranscriptSegment(text: join(units[lower..<upper]), startSeconds: segment.startSeconds, endSeconds: segment.endSeconds))
                lower = upper
            }
        }
        return result
    }

    /// A unit of text and whether white space came before it.
    struct Unit: Equatable {
        var text: String
        var spaced: Bool
    }

    static func units(of text: String) -> [Unit] {
        var units: [Unit] = []
        var word = ""
        var spaced = false
        var pendingSpace = false
        func flush() {
            if !word.isEmpty { units.append(Unit(text: word, spaced: spaced)) }
            word = ""
        }
        for character in text {
            let script = character.unicodeScalars.first.flatMap(WritingScript.of)
            if character.isWhitespace {
                flush()
                pendingSpace = true
            } else if isCJKPunctuation(character) {
                flush()
                if !units.isEmpty && !pendingSpace {
                    units[units.count - 1].text.append(character)
                } else {
                    units.append(Unit(text: String(character), spaced: pendingSpace))
                }
                pendingSpace = false
            } else if script == .han || script == .kana {
                flush()
                units.append(Unit(text: String(character), spaced: pendingSpace))
                pendingSpace = false
            } else {
                if word.isEmpty { spaced = pendingSpace }
                word.append(character)
                pendingSpace = false
            }
        }
        flush()
        return units
    }

    private static func isCJKPunctuation(_ character: Character) -> Bool {
        "。，、！？：；」』）".contains(character)
    }

    static func join(_ units: ArraySlice<Unit>) -> String {
        var text = ""
        for (offset, unit) in units.enumerated() {
            if offset > 0 && unit.spaced { text += " " }
            text += unit.text
        }
        return text
    }
}
