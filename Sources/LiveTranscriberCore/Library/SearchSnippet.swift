import Foundation

/// Builds the snippet shown for a place that matched: the text around the first match, every
/// match marked.
public enum SearchSnippet {
    /// `text` shortened to about `radius` characters either side of the first of `ranges`, each
    /// range (of `text`) between `SearchHit.matchStart` and `SearchHit.matchEnd`; "…" marks a cut.
    /// Overlapping ranges are merged.
    ///
    /// With the range of "悬空" in "我们发现50条悬空引用需要修复" and `radius` 3:
    /// "…50条\u{2}悬空\u{3}引用需…".
    /// - Complexity: O(n + r log r) in the text's length and the number of ranges.
    public static func mark(_ text: String, ranges: [Range<String.Index>], radius: Int = 40) -> String {
        var kept: [Range<String.Index>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = kept.last, range.lowerBound <= last.upperBound {
                kept[kept.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                kept.append(range)
            }
        }
        guard let first = kept.first else {
            return text.count > radius * 2 ? String(text.prefix(radius * 2)) + "…" : text
        }
        let start = text.index(first.lowerBound, offsetBy: -radius, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(first.upperBound, offsetBy: radius, limitedBy: text.endIndex) ?? text.endIndex
        var output = start > text.startIndex ? "…" : ""
        var cursor = start
        for range in kept where range.lowerBound >= start && range.upperBound <= end {
            output += text[cursor..<range.lowerBound] + SearchHit.matchStart + text[range] + SearchHit.matchEnd
            cursor = range.upperBound
        }
        output += text[cursor..<end]
        if end < text.endIndex { output += "…" }
        return output
    }

    /// `text` with every occurrence of the query's terms marked (see `mark(_:ranges:radius:)`).
    public static func mark(_ text: String, query: SearchQuery, radius: Int = 40) -> String {
        let tokens = SearchText.tokens(in: text)
        return mark(text, ranges: query.terms.flatMap { $0.occurrences(in: tokens) }, radius: radius)
    }
}
