import Foundation

/// Builds a search snippet in Swift: the match marked in the original text (the index stores folded text).
public enum SearchSnippet {
    /// `text` shortened to about `radius` characters either side of the first match, with every
    /// match of `substrings` (compared folded by `TextFolding.searchKey`, as the index compares) between
    /// `SearchHit.matchStart` and `SearchHit.matchEnd`; "…" marks a cut.
    ///
    /// `mark("我们发现50条悬空引用需要修复", substrings: ["悬空"], radius: 3)` is "…50条\u{2}悬空\u{3}引用需…".
    /// - Complexity: O(n × m) in the text's and the substrings' lengths.
    ///   `words` are matched as word prefixes, as the word index matches them: each mark starts
    ///   where a word starts and runs to that word's end ("plan" marks all of "planner").
    public static func mark(_ text: String, substrings: [String], words: [String] = [], radius: Int = 40) -> String {
        // Matches are found in the folded text (the one fold search uses) and mapped back onto
        // the original characters, so what is marked is exactly what matched.
        let folded = TextFolding.foldedCharacters(text)
        let foldedText = folded.map(\.character)
        var offsets: [Range<Int>] = []
        let characters = Array(text)
        func isCJK(_ offset: Int) -> Bool { characters[offset].unicodeScalars.first.map(TextScript.isCJK) ?? false }
        func isWordCharacter(_ offset: Int) -> Bool {
            offset >= 0 && offset < characters.count && (characters[offset].isLetter || characters[offset].isNumber)
        }
        /// True when a word continues from `offset - 1` into `offset` (same side of a CJK/Latin boundary).
        func joins(_ offset: Int) -> Bool {
            isWordCharacter(offset - 1) && isWordCharacter(offset) && isCJK(offset - 1) == isCJK(offset)
        }
        let terms = substrings.map { ($0, false) } + words.map { ($0, true) }
        for (substring, isWord) in terms where !substring.isEmpty {
            let needle = Array(TextFolding.searchKey(substring))
            guard !needle.isEmpty, needle.count <= foldedText.count else { continue }
            var position = 0
            while position + needle.count <= foldedText.count {
                if foldedText[position] == needle[0], Array(foldedText[position..<position + needle.count]) == needle,
                   !isWord || !joins(folded[position].source) {
                    var end = folded[position + needle.count - 1].source + 1
                    while isWord && joins(end) { end += 1 }
                    offsets.append(folded[position].source..<end)
                    position += needle.count
                } else {
                    position += 1
                }
            }
        }
        func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }
        var ranges = offsets.map { index($0.lowerBound)..<index($0.upperBound) }
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
