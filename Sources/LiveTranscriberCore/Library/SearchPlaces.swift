import Foundation

/// Finds the places inside one recording that match a query: the rule every store uses once it
/// knows which recordings to show.
public enum SearchPlaces {
    /// A transcript segment as the search sees it.
    public struct Segment: Sendable, Equatable {
        /// Seconds from the start of the recording.
        public var startSeconds: Double
        public var text: String

        public init(startSeconds: Double, text: String) {
            self.startSeconds = startSeconds
            self.text = text
        }
    }

    /// What matched in one recording.
    public struct Found: Sendable, Equatable {
        /// The best places, at most the limit: matching name, tags, summary and language in that
        /// order, then segments by how many of the query's terms they hold, then how often, then time.
        public var hits: [SearchHit]
        /// Matching transcript segments in all.
        public var matchingSegments: Int
        /// Indexes (into `SearchQuery.terms`) of the terms found anywhere in the recording.
        public var matchedTerms: Set<Int>
        /// Each field's matches: how often each term occurs, weighted by field, and each field's length in tokens.
        public var statistics: SearchScore.Statistics
    }

    /// The places of `recording` and `segments` that match `query`.
    /// - Parameter limit: At most this many places in `hits`.
    /// - Complexity: O(n) in the recording's text (UTF-8 bytes); snippets only for the places kept.
    public static func find(
        _ query: SearchQuery, recording: Recording, segments: [Segment], limit: Int
    ) -> Found {
        let termBytes = query.terms.map { $0.tokens.map { Array($0.utf8) } }
        var hits: [SearchHit] = []
        var matchedTerms = Set<Int>()
        var statistics = SearchScore.Statistics()

        var list = SearchText.TokenList()
        /// Occurrences (UTF-8 offsets) and per-term counts of the query in `text`.
        func examine(_ text: String) -> (ranges: [(start: Int, end: Int)], terms: [Int: Int], length: Int) {
            list.load(text)
            var ranges: [(start: Int, end: Int)] = []
            var terms: [Int: Int] = [:]
            for (index, term) in query.terms.enumerated() {
                let found = term.occurrences(in: list, bytes: termBytes[index])
                if !found.isEmpty {
                    ranges += found
                    terms[index] = found.count
                }
            }
            return (ranges, terms, list.count)
        }
        func field(_ field: SearchHit.Field, _ text: String) {
            let (ranges, terms, length) = examine(text)
            statistics.add(field: field, termCounts: terms, length: length)
            guard !ranges.isEmpty else { return }
            matchedTerms.formUnion(terms.keys)
            hits.append(hit(recording, field: field, start: nil, text: text, ranges: ranges,
                            score: SearchHit.weight(of: field) * Double(terms.count * 10 + terms.values.reduce(0, +))))
        }
        field(.name, recording.name)
        for tag in recording.tags { field(.tag, tag) }
        if let summary = recording.summary { field(.summary, summary) }
        field(.language, recording.language)

        // Every token of a term, as bytes an ASCII text must hold (any case) for the term to be in it.
        let needles = termBytes.flatMap { $0 }.filter { !$0.isEmpty }
        var matching: [(segment: Int, ranges: [(start: Int, end: Int)], distinct: Int, count: Int)] = []
        for (index, segment) in segments.enumerated() {
            // Most segments hold no term: an ASCII one that holds none of the tokens' bytes is only
            // counted (its length in tokens), not split into tokens.
            if let length = asciiTokenCount(segment.text, unlessItMayHold: needles) {
                statistics.add(field: .transcript, termCounts: [:], length: length)
                continue
            }
            let (ranges, terms, length) = examine(segment.text)
            statistics.add(field: .transcript, termCounts: terms, length: length)
            guard !ranges.isEmpty else { continue }
            matchedTerms.formUnion(terms.keys)
            matching.append((index, ranges, terms.count, terms.values.reduce(0, +)))
        }
        matching.sort { a, b in
            if a.distinct != b.distinct { return a.distinct > b.distinct }
            if a.count != b.count { return a.count > b.count }
            return a.segment < b.segment
        }
        for place in matching.prefix(max(0, limit - hits.count)) {
            let segment = segments[place.segment]
            hits.append(hit(recording, field: .transcript, start: segment.startSeconds, text: segment.text, ranges: place.ranges,
                            score: Double(place.distinct * 10 + place.count)))
        }
        return Found(hits: Array(hits.prefix(max(0, limit))), matchingSegments: matching.count,
                     matchedTerms: matchedTerms, statistics: statistics)
    }

    /// The number of tokens in `text` when it is ASCII and holds none of `needles` (lowercase
    /// bytes) in any case; nil otherwise (then it must be examined token by token). An ASCII
    /// token is a run of letters and digits (`SearchText`), and a folded ASCII token is its
    /// lowercase bytes, so a text without a needle's bytes cannot hold its term.
    static func asciiTokenCount(_ text: String, unlessItMayHold needles: [[UInt8]]) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var count = 0
            var inWord = false
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                let isWord = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                if isWord && !inWord { count += 1 }
                inWord = isWord
            }
            for needle in needles where needle.count <= bytes.count {
                guard needle.allSatisfy({ $0 < 0x80 }) else { continue }  // a non-ASCII token is in no ASCII text
                let first = needle[0]
                for start in 0...(bytes.count - needle.count) {
                    let byte = bytes[start]
                    guard byte == first || (byte >= 0x41 && byte <= 0x5A && byte + 0x20 == first) else { continue }
                    var position = 1
                    while position < needle.count {
                        let other = bytes[start + position]
                        let lowered = other >= 0x41 && other <= 0x5A ? other + 0x20 : other
                        if lowered != needle[position] { break }
                        position += 1
                    }
                    if position == needle.count { return nil }
                }
            }
            return count
        }
    }

    private static func hit(
        _ recording: Recording, field: SearchHit.Field, start: Double?, text: String,
        ranges: [(start: Int, end: Int)], score: Double
    ) -> SearchHit {
        let utf8 = text.utf8
        let marked = ranges.map { utf8.index(utf8.startIndex, offsetBy: $0.start)..<utf8.index(utf8.startIndex, offsetBy: $0.end) }
        return SearchHit(recordingID: recording.id, recordingName: recording.name, createdAt: recording.createdAt, field: field,
                         startSeconds: start, markedSnippet: SearchSnippet.mark(text, ranges: marked), score: score)
    }
}
