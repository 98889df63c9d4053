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

    /// A marked snippet (as `mark` makes it) cut to at most `width` terminal columns around its
    /// first match, so that a match late in a long segment is never cut away: the first match is
    /// kept whole when it fits and the text either side of it is dropped about evenly, with "…"
    /// on each side cut (an "…" already at that end is dropped with the text). Spaces next to a
    /// new "…" are dropped. A later match cut in two keeps its marks balanced. A first match wider
    /// than `width` keeps its start, cut with "…". Without a match the end is cut, as for any text.
    ///
    /// Widths are `CharacterWidth` columns; each mark takes `markColumns` (1 when shown as "[" and
    /// "]", 0 when shown as bold). With `width` 20,
    /// "…things before we finally agreed on the \u{2}budget\u{3} for marketing" becomes
    /// "…n the \u{2}budget\u{3} for m…", or "…the \u{2}budget\u{3} for…" with `markColumns` 1.
    /// - Complexity: O(n) in the snippet's length.
    public static func fit(_ marked: String, width: Int, markColumns: Int = 0) -> String {
        let characters = Array(marked)
        let open = Character(SearchHit.matchStart), close = Character(SearchHit.matchEnd)
        func columns(_ character: Character) -> Int {
            character == open || character == close ? markColumns : CharacterWidth.columns(of: character)
        }
        let total = characters.reduce(0) { $0 + columns($1) }
        guard total > width else { return marked }
        guard width > 0 else { return "" }
        let ellipsis = PresentationText.ellipsis
        guard let start = characters.firstIndex(of: open), let end = characters[start...].firstIndex(of: close) else {
            // No match: the end is cut.
            var kept = "", used = 1
            for character in characters {
                if used + columns(character) > width { break }
                kept.append(character)
                used += columns(character)
            }
            return kept.trimmingTrailingSpaces() + String(ellipsis)
        }
        let leftCut = start > 0 ? 1 : 0
        let match = characters[start...end].reduce(0) { $0 + columns($1) }
        if match + leftCut + (end < characters.count - 1 ? 1 : 0) > width {
            // The first match alone is too wide: its start, closed, then "…".
            var kept = leftCut == 1 ? String(ellipsis) : "", used = leftCut + 1 + markColumns
            for character in characters[start..<end] {
                if used + columns(character) > width { break }
                kept.append(character)
                used += columns(character)
            }
            return kept + String(close) + String(ellipsis)
        }
        // Grow the window [lower, upper] from the first match, a character on each side in turn,
        // while it fits with an "…" for each side still cut and a close mark for a later match
        // it cuts in two.
        var lower = start, upper = end, used = match, unclosed = 0
        func fits(_ used: Int, _ lower: Int, _ upper: Int, _ unclosed: Int) -> Bool {
            used + (lower > 0 ? 1 : 0) + (upper < characters.count - 1 ? 1 : 0) + (unclosed > 0 ? markColumns : 0) <= width
        }
        var grew = true
        while grew {
            grew = false
            if lower > 0, fits(used + columns(characters[lower - 1]), lower - 1, upper, unclosed) {
                lower -= 1
                used += columns(characters[lower])
                grew = true
            }
            if upper < characters.count - 1 {
                let next = characters[upper + 1]
                let change = next == open ? 1 : next == close ? -1 : 0
                if fits(used + columns(next), lower, upper + 1, unclosed + change) {
                    upper += 1
                    used += columns(next)
                    unclosed += change
                    grew = true
                }
            }
        }
        var text = String(characters[lower...upper])
        if lower > 0 {
            // The text cut on the left may have begun with mark's own "…": it went with the text.
            text = String(ellipsis) + String(text.drop(while: { $0 == " " }))
        }
        if upper < characters.count - 1 {
            text = text.trimmingTrailingSpaces() + (unclosed > 0 ? String(close) : "") + String(ellipsis)
        }
        return text
    }

    /// A marked snippet (as `mark` makes it) as runs of text, each a match or not, marks dropped
    /// and empty runs left out: for a front end that draws matches in bold.
    /// "a \u{2}b\u{3} c" is [("a ", false), ("b", true), (" c", false)]; a mark left open (a cut
    /// snippet) ends at the end.
    public static func runs(_ marked: String) -> [(text: String, isMatch: Bool)] {
        var runs: [(text: String, isMatch: Bool)] = []
        var current = ""
        var inMatch = false
        let open = Character(SearchHit.matchStart), close = Character(SearchHit.matchEnd)
        for character in marked {
            guard character == open || character == close else {
                current.append(character)
                continue
            }
            if !current.isEmpty { runs.append((current, inMatch)) }
            current = ""
            inMatch = character == open
        }
        if !current.isEmpty { runs.append((current, inMatch)) }
        return runs
    }

    /// `text` with every occurrence of the query's terms marked (see `mark(_:ranges:radius:)`).
    public static func mark(_ text: String, query: SearchQuery, radius: Int = 40) -> String {
        let tokens = SearchText.tokens(in: text)
        return mark(text, ranges: query.terms.flatMap { $0.occurrences(in: tokens) }, radius: radius)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
