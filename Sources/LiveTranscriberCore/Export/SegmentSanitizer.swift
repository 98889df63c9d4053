import Foundation

/// Makes a transcript safe to export: ordered, non-overlapping, finite, with no empty or repeated cues.
///
/// The rules, applied in this order:
/// 1. Text is trimmed of surrounding white space; a segment with no text left is dropped.
/// 2. A NaN, infinite or negative time becomes 0 (a start) or its start (an end); nothing traps.
/// 3. An end before its start is repaired by swapping the two (the span is kept, only its order was wrong).
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
            let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let start = finiteNonNegative(segment.startSeconds, fallback: 0)
            let end = finiteNonNegative(segment.endSeconds, fallback: start)
            cleaned.append(TranscriptSegment(
                text: text, startSeconds: min(start, end), endSeconds: max(start, end), words: segment.words))
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

    private static func finiteNonNegative(_ value: Double, fallback: Double) -> Double {
        guard value.isFinite else { return fallback }
        return max(0, value)
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
