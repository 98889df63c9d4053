import Foundation

/// Makes a transcript safe to export: ordered, non-overlapping, finite, with no empty or repeated cues.
///
/// The rules, applied in this order:
/// 1. Text is trimmed of surrounding white space; a segment with no text left is dropped.
/// 2. A NaN, infinite or negative time becomes 0 (a start) or its start (an end); nothing traps.
/// 3. An end before its start becomes the start (the start is what the live view showed and the
///    journal kept); word times are clamped into the segment. Steps 1–3 are `cleaned(_:)`, the one
///    rule the live path (`TranscriptAssembler`) uses too, so a segment has the same times live,
///    saved and exported.
/// 4. Segments are sorted by start, then end (stable for equal times).
/// 5. An exact duplicate (same text, start and end after the steps above) is dropped.
/// 6. An overlap is resolved: when a segment starts inside the previous one, the previous one ends
///    where it starts; when both start together, the later one starts where the previous one ends.
///
/// Word timings are kept as they are. The result satisfies, for consecutive `a`, `b`:
/// `0 <= a.start <= a.end <= b.start <= b.end`.
///
/// - Complexity: O(n log n) in segments.
public enum SegmentSanitizer {
    /// The sanitized copy of `segments`.
    public static func sanitize(_ segments: [TranscriptSegment]) -> [TranscriptSegment] {
        var cleaned: [TranscriptSegment] = []
        cleaned.reserveCapacity(segments.count)
        for segment in segments {
            if let segment = self.cleaned(segment) { cleaned.append(segment) }
        }
        // Stable sort: enumerate to break ties by input order.
        cleaned = cleaned.enumerated().sorted { lhs, rhs in
            if lhs.element.startSeconds != rhs.element.startSeconds {
                return lhs.element.startSeconds < rhs.element.startSeconds
            }
            if lhs.element.endSeconds != rhs.element.endSeconds {
                return lhs.element.endSeconds < rhs.element.endSeconds
            }
            return lhs.offset < rhs.offset
        }.map(\.element)

        var result: [TranscriptSegment] = []
        result.reserveCapacity(cleaned.count)
        var seen = Set<DuplicateKey>()
        for var segment in cleaned {
            guard seen.insert(DuplicateKey(segment)).inserted else { continue }
            if var previous = result.last, segment.startSeconds < previous.endSeconds {
                if segment.startSeconds > previous.startSeconds {
                    previous.endSeconds = segment.startSeconds
                    result[result.count - 1] = previous
                } else {
                    segment.startSeconds = previous.endSeconds
                    segment.endSeconds = max(segment.endSeconds, segment.startSeconds)
                }
            }
            result.append(segment)
        }
        return result
    }

    /// One segment cleaned by rules 1–3: trimmed text (nil when none is left), a finite start ≥ 0,
    /// an end ≥ the start (a NaN, infinite or earlier end becomes the start), words clamped into
    /// the segment.
    public static func cleaned(_ segment: TranscriptSegment) -> TranscriptSegment? {
        let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let start = segment.startSeconds.isFinite ? max(0, segment.startSeconds) : 0
        let end = segment.endSeconds.isFinite ? max(start, segment.endSeconds) : start
        let words = segment.words.map { word -> WordTiming in
            let wordStart = word.startSeconds.isFinite ? min(max(start, word.startSeconds), end) : start
            let wordEnd = word.endSeconds.isFinite ? min(max(wordStart, word.endSeconds), end) : wordStart
            return WordTiming(word: word.word, startSeconds: wordStart, endSeconds: wordEnd)
        }
        // A segment's own language is kept when it is shaped like a BCP 47 tag ("de"), in its usual case.
        let language = segment.language.flatMap(LanguageChoice.canonicalTag)
        return TranscriptSegment(text: text, startSeconds: start, endSeconds: end, words: words, language: language, speaker: segment.speaker)
    }

    private struct DuplicateKey: Hashable {
        let text: String
        let start: Double
        let end: Double
        init(_ segment: TranscriptSegment) {
            text = segment.text
            start = segment.startSeconds
            end = segment.endSeconds
        }
    }
}
