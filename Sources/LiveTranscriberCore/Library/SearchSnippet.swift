import Foundation

/// Builds a search snippet in Swift, for matches the word index did not mark (CJK substrings).
public enum SearchSnippet {
    /// `text` shortened to about `radius` characters either side of the first match, with every
    /// match of `substrings` (compared with case and diacritics folded) between
    /// `SearchHit.matchStart` and `SearchHit.matchEnd`; "…" marks a cut.
    ///
    /// `mark("我们发现50条悬空引用需要修复", substrings: ["悬空"], radius: 3)` is "…50条\u{2}悬空\u{3}引用需…".
    /// - Complexity: O(n × m) in the text's and the substrings' lengths.
    public static func mark(_ text: String, substrings: [String], radius: Int = 40) -> String {
        var ranges: [Range<String.Index>] = []
        for substring in substrings where !substring.isEmpty {
            var searchRange = text.startIndex..<text.endIndex
            while let found = text.range(of: substring, options: [.caseInsensitive, .diacriticInsensitive], range: searchRange) {
                ranges.append(found)
                guard found.upperBound < text.endIndex else { break }
                searchRange = found.upperBound..<text.endIndex
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        // Drop overlaps: keep the earliest.
        var kept: [Range<String.Index>] = []
        for range in ranges where kept.last.map({ $0.upperBound <= range.lowerBound }) ?? true {
            kept.append(range)
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
}
