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
    /// - Parameters:
    ///   - limit: At most this many places in `hits`.
    ///   - measuring: When false, `statistics` stays empty and every segment given is examined:
    ///     for a store that ranks elsewhere and passes only the segments a `Screen` let through, in
    ///     their order (ties between places go to the earlier one). When true, segments the screen
    ///     rules out are only measured.
    ///   - placing: Indexes (into `SearchQuery.terms`) of the terms that make a place: a field or a
    ///     segment holding none of them is not one, though the other terms are marked in those that
    ///     are (a store leaves common words out: `the` alone is no place for `the garden`). Nil: every
    ///     term. Only with `measuring` false (statistics need every term's counts).
    /// - Complexity: O(n) in the recording's text (UTF-8 bytes); snippets only for the places kept.
    public static func find(
        _ query: SearchQuery, recording: Recording, segments: [Segment], limit: Int, measuring: Bool = true,
        placing: Set<Int>? = nil
    ) -> Found {
        let placing = measuring ? nil : placing
        let termBytes = query.terms.map { $0.tokens.map { Array($0.utf8) } }
        var hits: [SearchHit] = []
        var matchedTerms = Set<Int>()
        var statistics = SearchScore.Statistics()

        /// What one text holds: its occurrences (UTF-8 offsets), how often each term occurs (by
        /// index in `query.terms`) and its length in tokens (0 when not measuring).
        struct Examined {
            var ranges: [(start: Int, end: Int)] = []
            var counts: [Int]
            var length = 0
            var distinct: Int { counts.count { $0 > 0 } }
            var total: Int { counts.reduce(0, +) }
            var found: [Int] { counts.indices.filter { counts[$0] > 0 } }
            var termCounts: [Int: Int] { Dictionary(uniqueKeysWithValues: found.map { ($0, counts[$0]) }) }
        }
        /// True when the terms found make a place.
        func isPlace(_ examined: Examined) -> Bool {
            guard let placing else { return !examined.ranges.isEmpty }
            return placing.contains { examined.counts[$0] > 0 }
        }
        var list = SearchText.TokenList()
        func examine(_ text: String) -> Examined {
            var text = text
            var examined = Examined(counts: Array(repeating: 0, count: query.terms.count))
            // Text whose letters outside ASCII are all CJK characters (an English or a Chinese
            // library) is matched on its bytes without a token list.
            let plain = text.withUTF8 { bytes -> Bool in
                for (index, term) in query.terms.enumerated() {
                    // Nil from the first term: the text holds another letter outside ASCII.
                    guard let found = plainOccurrences(of: termBytes[index], isPrefix: term.isPrefix, in: bytes) else { return false }
                    examined.ranges += found
                    examined.counts[index] = found.count
                }
                if measuring { examined.length = tokenCount(String(decoding: bytes, as: UTF8.self)) }
                return true
            }
            if plain { return examined }
            examined = Examined(counts: Array(repeating: 0, count: query.terms.count))
            list.load(text)
            for (index, term) in query.terms.enumerated() {
                let found = term.occurrences(in: list, bytes: termBytes[index])
                examined.ranges += found
                examined.counts[index] = found.count
            }
            examined.length = list.count
            return examined
        }
        func field(_ field: SearchHit.Field, _ given: String) {
            let text = SearchText.canonical(given)
            let examined = examine(text)
            if measuring { statistics.add(field: field, termCounts: examined.termCounts, length: examined.length) }
            guard !examined.ranges.isEmpty, isPlace(examined) else { return }
            matchedTerms.formUnion(examined.found)
            hits.append(hit(recording, field: field, start: nil, text: text, ranges: examined.ranges,
                            score: SearchHit.weight(of: field) * Double(examined.distinct * 10 + examined.total)))
        }
        field(.name, recording.name)
        for tag in recording.tags { field(.tag, tag) }
        if let summary = recording.summary { field(.summary, summary) }
        field(.language, recording.language)
        for speaker in recording.speakers { if let name = speaker.name { field(.speaker, name) } }

        let screen = Screen(query, terms: placing)
        var matching: [(segment: Int, ranges: [(start: Int, end: Int)], distinct: Int, count: Int, text: String)] = []
        for (index, segment) in segments.enumerated() {
            // Most segments hold no term: one the screen rules out is only counted (its length in
            // tokens), not split into folded tokens.
            if measuring, !screen.mayHold(segment.text) {
                statistics.add(field: .transcript, termCounts: [:], length: tokenCount(segment.text))
                continue
            }
            let text = SearchText.canonical(segment.text)
            let examined = examine(text)
            if measuring { statistics.add(field: .transcript, termCounts: examined.termCounts, length: examined.length) }
            guard !examined.ranges.isEmpty, isPlace(examined) else { continue }
            matchedTerms.formUnion(examined.found)
            matching.append((index, examined.ranges, examined.distinct, examined.total, text))
        }
        matching.sort { a, b in
            if a.distinct != b.distinct { return a.distinct > b.distinct }
            if a.count != b.count { return a.count > b.count }
            return a.segment < b.segment
        }
        for place in matching.prefix(max(0, limit - hits.count)) {
            let segment = segments[place.segment]
            hits.append(hit(recording, field: .transcript, start: segment.startSeconds, text: place.text, ranges: place.ranges,
                            score: Double(place.distinct * 10 + place.count)))
        }
        return Found(hits: Array(hits.prefix(max(0, limit))), matchingSegments: matching.count,
                     matchedTerms: matchedTerms, statistics: statistics)
    }

    /// The number of tokens in `text` (`SearchText.tokenCount`), ASCII text counted by bytes.
    static func tokenCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes -> Int in
            bytes.contains(where: { $0 >= 0x80 }) ? SearchText.tokenCount(in: String(decoding: bytes, as: UTF8.self)) : asciiTokenCount(bytes)
        }
    }

    /// True for the bytes of an ASCII token: letters and digits (`SearchText`).
    private static func isASCIIWord(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The number of tokens in ASCII `bytes`: runs of letters and digits.
    static func asciiTokenCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var inWord = false
        for byte in bytes {
            let isWord = isASCIIWord(byte)
            if isWord && !inWord { count += 1 }
            inWord = isWord
        }
        return count
    }

    /// `SearchTerm.occurrences(in:bytes:)` for plain text (its letters outside ASCII are all CJK
    /// characters; `find` passes text in canonical composition), read from its bytes. Such a text's tokens are
    /// runs of ASCII letters and digits, folding to their lowercase bytes, and single CJK
    /// characters, folding to themselves; a term (its tokens' folded bytes, `tokens`) occurs where
    /// a token equals its first token and the tokens after it, past any separators, equal the rest
    /// (the last one only beginning with it when `isPrefix`).
    /// - Returns: UTF-8 offsets of each occurrence's first token's start and last token's end; nil
    ///   when the text is not plain (it holds a letter, digit or mark outside ASCII that is not a
    ///   CJK character), found on the same pass.
    static func plainOccurrences(of tokens: [[UInt8]], isPrefix: Bool, in bytes: UnsafeBufferPointer<UInt8>) -> [(start: Int, end: Int)]? {
        guard !tokens.isEmpty, tokens.allSatisfy({ !$0.isEmpty }) else { return [] }
        let count = bytes.count
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        var plain = true
        /// Where the scalar at `position` ends, and whether it is a token of its own (a CJK character).
        func scalar(at position: Int) -> (end: Int, isCharacter: Bool) {
            let lead = bytes[position]
            let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let end = min(count, position + length)
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for next in (position + 1)..<end { value = value << 6 | UInt32(bytes[next] & 0x3F) }
            if TextScript.isCommonLetter(value) { return (end, true) }
            guard let scalar = Unicode.Scalar(value) else { return (end, false) }
            switch SearchText.kind(of: scalar) {
            case .character: return (end, true)
            case .word: plain = false
            case .separator: break
            }
            return (end, false)
        }
        /// The end of the token starting at `position`, or nil when a separator starts there
        /// (then `skip` is where the separator ends).
        func token(at position: Int) -> (end: Int?, skip: Int) {
            let byte = bytes[position]
            if byte < 0x80 {
                guard isASCIIWord(byte) else { return (nil, position + 1) }
                var end = position
                while end < count, bytes[end] < 0x80, isASCIIWord(bytes[end]) { end += 1 }
                return (end, end)
            }
            let (end, isCharacter) = scalar(at: position)
            return (isCharacter ? end : nil, end)
        }
        /// The end of the term's last token when the term starts at the token from `start` to `firstEnd`.
        func match(at start: Int, firstEnd: Int) -> Int? {
            var position = start
            for (index, wanted) in tokens.enumerated() {
                guard let end = index == 0 ? firstEnd : token(at: position).end else { return nil }
                let last = index == tokens.count - 1
                guard last && isPrefix ? end - position >= wanted.count : end - position == wanted.count else { return nil }
                for offset in 0..<wanted.count where lowered(bytes[position + offset]) != wanted[offset] { return nil }
                if last { return end }
                position = end
                while position < count, token(at: position).end == nil { position = token(at: position).skip }
                guard position < count else { return nil }
            }
            return nil
        }
        var found: [(start: Int, end: Int)] = []
        var index = 0
        while index < count {
            let (end, skip) = token(at: index)
            guard plain else { return nil }
            // A first byte that differs (in any case) rules the token out at once.
            if let end, lowered(bytes[index]) == tokens[0][0], let matched = match(at: index, firstEnd: end) { found.append((index, matched)) }
            index = skip
        }
        return found
    }

    /// A quick test, on a text's UTF-8 bytes, of whether the text can hold any of a query's terms:
    /// false only when it cannot, so a text it rules out needs no folding and no tokens.
    ///
    /// Why a byte search is enough: when every letter or digit of a text outside ASCII is a CJK
    /// character (`SearchText`: its own token, kept as it is), every folded token of the text is a
    /// run of its bytes, with ASCII capitals lowered. A term's folded tokens must then each occur
    /// in the text's bytes, ASCII letters in any case. A text with another letter or mark outside
    /// ASCII ("é", "Ｍ", "ß") may fold into anything, and one with a scalar canonical composition
    /// may change (conjoining jamo, a compatibility ideograph) is searched composed, so either is
    /// always let through (`SearchText.isCanonicallyStable`).
    public struct Screen: Sendable {
        /// Each term's tokens as folded UTF-8 bytes.
        private let terms: [[[UInt8]]]

        /// - Parameter terms: Indexes (into `query.terms`) of the terms to look for; nil: all.
        public init(_ query: SearchQuery, terms chosen: Set<Int>? = nil) {
            terms = query.terms.enumerated().filter { chosen?.contains($0.offset) ?? true }
                .map { $0.element.tokens.map { Array($0.utf8) }.filter { !$0.isEmpty } }.filter { !$0.isEmpty }
        }

        /// False only when `text` cannot hold any term.
        public func mayHold(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { mayHold($0) }
        }

        /// False only when the UTF-8 `bytes` cannot hold any term.
        /// - Complexity: O(n × m): n bytes, m bytes of the query's tokens.
        public func mayHold(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            if Self.holdsFoldableLetter(bytes) { return true }
            return terms.contains { tokens in tokens.allSatisfy { Self.contains(bytes, $0) } }
        }

        /// True when `bytes` hold a letter, digit or mark outside ASCII that is not a CJK character.
        static func holdsFoldableLetter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                guard lead >= 0x80 else {
                    index += 1
                    continue
                }
                let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                let end = min(bytes.count, index + length)
                var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for position in (index + 1)..<end { value = value << 6 | UInt32(bytes[position] & 0x3F) }
                // A letter or mark that folds, or a scalar canonical composition may change ("회" as
                // jamo: text is searched composed, `SearchText.canonical`): the bytes say nothing.
                if !SearchText.isCanonicallyStable(value) { return true }
                index = end
            }
            return false
        }

        /// True when `needle` (folded bytes: ASCII letters lowercase) occurs in `bytes`, ASCII capitals
        /// of `bytes` read as lowercase.
        static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            guard needle.count <= bytes.count else { return false }
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
                if position == needle.count { return true }
            }
            return false
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
