import Foundation
import LiveTranscriberCore

/// Search: rank recordings with the per-recording FTS5 documents, then find the places inside
/// the page of recordings shown.
extension LibraryIndex {
    /// A query matching more recordings than this, with a common word among its terms, is ranked
    /// from that word's `common_terms` list instead of scoring every match.
    static let broadQueryRecordings = 1_000

    /// The page of recordings matching `query`, best first, each with its best places.
    ///
    /// Tiers: recordings holding every term, then those holding some of the terms other than
    /// common words, as whole words (ranked by BM25). The first tier is ranked by BM25 of the
    /// terms that are not common words; a query of common words only is ranked by BM25, or from a
    /// common word's list when the match is broad. A recording matching only common words of a several-word query is
    /// left out: `the` alone says nothing about `the budget`.
    /// - Complexity: one FTS5 lookup per tier (and a count when the query holds a common word);
    ///   BM25 for at most `broadQueryRecordings` recordings; then the transcripts of the `limit`
    ///   recordings shown.
    func search(_ query: SearchQuery, limit: Int, offset: Int, placesPerRecording: Int) throws -> [SearchResult] {
        guard !query.isEmpty, limit > 0 else { return [] }
        // No library holds 2³¹ recordings: larger values page the same, and sums of them cannot overflow.
        let limit = min(limit, Int(Int32.max))
        let offset = min(max(0, offset), Int(Int32.max))
        if query.terms.count == 1, isCommon(query.terms[0]),
           let page = try commonWordPage(query.terms[0].tokens[0], limit: limit, offset: offset) {
            return try results(for: page, query: query, placesPerRecording: placesPerRecording)
        }
        let everything = FTS5Pattern.all(query.terms)
        var ranked: [(number: Int64, score: Double)] = []
        // The number of full matches, counted only where it decides something: whether a query with
        // a common word is broad, and where the partial tier starts when this page holds no full match.
        var fullMatches: Int?
        let significant = query.terms.filter { !isCommon($0) }
        if query.terms.contains(where: isCommon), !significant.isEmpty {
            // Common words filter, the other terms rank: BM25 gives a word in most recordings next
            // to no weight, yet scoring it reads its whole position list (`the gard`: about three
            // quarters of the query's work).
            // A near-universal word typed whole (`the`) filters through its short `common_absent`
            // list: the FTS5 filter would seek through its position list, most of a cold query's
            // reads (`the gard`: 8 ms against 2 ms from a fresh connection on 10,000 recordings).
            let listed = query.terms.filter { isCommon($0) && !$0.isPrefix && universalTerms.contains($0.tokens[0]) }
            let filtering = query.terms.filter { isCommon($0) && !listed.contains($0) }
            ranked = try rankedByBM25(FTS5Pattern.all(significant), within: filtering.isEmpty ? nil : FTS5Pattern.all(significant + filtering),
                                      notListedAbsent: listed.map { $0.tokens[0] }, limit: limit, offset: offset)
        } else if query.terms.contains(where: isCommon) {
            // The full matches, looked up once: their number says whether the query is broad, and
            // a broad one's page is read from the common word's list filtered by them.
            let matching = Set(try database.query("SELECT rowid FROM documents WHERE documents MATCH ?", [.text(everything)]) { $0.int64(0) })
            fullMatches = matching.count
            if offset < matching.count {
                ranked = try rankFull(query, expression: everything, matching: matching, limit: limit, offset: offset)
            }
        } else {
            ranked = try rankedByBM25(everything, limit: limit, offset: offset)
        }
        // Partial matches: whole words only (a prefix would make this tier as broad as the library).
        let rare = significant.map { SearchTerm(tokens: $0.tokens, isPrefix: false) }
        if ranked.count < limit, query.terms.count > 1, !rare.isEmpty {
            // A page cut short by the end of the full matches says where they end.
            let full = try fullMatches ?? (!ranked.isEmpty || offset == 0 ? offset + ranked.count : count(everything))
            ranked += try rankedByBM25(FTS5Pattern.partial(rare, notAll: query.terms),
                                       limit: limit - ranked.count, offset: max(0, offset - full))
        }
        return try results(for: ranked, query: query, placesPerRecording: placesPerRecording)
    }

    /// The page a query of one common word (`the`, or `the` typed as a prefix) gets from that
    /// word's `common_terms` list alone, or nil when that list holds no more than
    /// `broadQueryRecordings` recordings or does not fill the page (then `search` counts and ranks
    /// as for any query). The same page `rankFull` reads, without its full-text lookup: every
    /// listed recording holds the word (the list is scored from the tokens the index stores), so
    /// it matches the query, and the list's length alone shows the query is broad.
    private func commonWordPage(_ word: String, limit: Int, offset: Int) throws -> [(number: Int64, score: Double)]? {
        let broad = try database.query("SELECT 1 FROM common_terms WHERE term = ?1 LIMIT 1 OFFSET ?2",
                                       [.text(word), .integer(Int64(Self.broadQueryRecordings))]) { _ in true }
        guard !broad.isEmpty else { return nil }
        let page = try database.query("""
            SELECT number, score FROM common_terms WHERE term = ?1
            ORDER BY score DESC, number DESC LIMIT ?2 OFFSET ?3
            """, [.text(word), .integer(Int64(limit)), .integer(Int64(offset))]) { (number: $0.int64(0), score: $0.double(1)) }
        return page.count == limit ? page : nil
    }

    /// True for a one-token term whose token is a common word (a prefix term counts by its own word).
    private func isCommon(_ term: SearchTerm) -> Bool {
        term.tokens.count == 1 && commonTerms.contains(term.tokens[0])
    }

    private func count(_ expression: String) throws -> Int {
        try database.query("SELECT count(*) FROM documents WHERE documents MATCH ?", [.text(expression)]) { Int($0.int64(0)) }.first ?? 0
    }

    /// The page of recordings holding every term (`matching`, the rowids of `expression`'s matches).
    private func rankFull(_ query: SearchQuery, expression: String, matching: Set<Int64>, limit: Int, offset: Int) throws -> [(number: Int64, score: Double)] {
        guard matching.count > Self.broadQueryRecordings, let common = query.terms.first(where: isCommon)?.tokens[0] else {
            return try rankedByBM25(expression, limit: limit, offset: offset)
        }
        // A broad query with a common word: read that word's list best first (an index range),
        // keeping the recordings that match the whole query, until the page is full.
        var page: [(number: Int64, score: Double)] = []
        var listed = 0
        let statement = try database.prepare("SELECT number, score FROM common_terms WHERE term = ? ORDER BY score DESC, number DESC")
        try statement.bind([.text(common)])
        while page.count < limit, try statement.step() {
            let number = statement.int64(0)
            guard matching.contains(number) else { continue }
            if listed >= offset { page.append((number: number, score: statement.double(1))) }
            listed += 1
        }
        try statement.reset()
        if page.count < limit {
            // The list ended (`listed` is every listed match): matches without the common word itself
            // (`the*` matching only "there") follow, by BM25.
            page += try rankedByBM25(expression, excludingListOf: common, limit: limit - page.count, offset: max(0, offset - listed))
        }
        return page
    }

    /// A page of `expression`'s matches by weighted BM25 (names 4, tags 3, summaries 2), newest first
    /// on ties; only those that also match `within` and are in no `common_absent` list of the words
    /// `notListedAbsent` (so they hold each), and none in `common`'s `common_terms` list.
    private func rankedByBM25(_ expression: String, within: String? = nil, notListedAbsent universal: [String] = [],
                              excludingListOf common: String? = nil, limit: Int, offset: Int) throws -> [(number: Int64, score: Double)] {
        guard limit > 0 else { return [] }
        let weights = [SearchHit.Field.name, .tag, .summary, .language, .transcript, .speaker].map { String(SearchHit.weight(of: $0)) }.joined(separator: ", ")
        var parameters: [SQLiteValue] = [.text(expression)]
        var exclusion = ""
        // `+rowid`: a bare rowid constraint would be handed to FTS5, which then runs the whole
        // MATCH again for every rowid listed (`the gard`: 1.7 billion instructions instead of 15 million).
        if let within {
            parameters.append(.text(within))
            exclusion += " AND +rowid IN (SELECT rowid FROM documents WHERE documents MATCH ?\(parameters.count))"
        }
        for word in universal {
            parameters.append(.text(word))
            exclusion += " AND +rowid NOT IN (SELECT number FROM common_absent WHERE term = ?\(parameters.count))"
        }
        if let common {
            parameters.append(.text(common))
            exclusion += " AND +rowid NOT IN (SELECT number FROM common_terms WHERE term = ?\(parameters.count))"
        }
        // The page's last position, saturating: a huge --limit or --offset must not overflow in SQL.
        let last = offset > Int.max - limit ? Int.max : offset + limit - 1
        parameters += [.integer(Int64(limit)), .integer(Int64(offset)), .integer(Int64(last))]
        let limitIndex = parameters.count - 2
        // The tie-break (newest first) needs each match's recording row; only the matches that
        // can reach the page are looked up: those ranked no worse than the page's last one
        // (`cut`), ties included. Looking up every match of a broad query read a page of
        // `recordings` per match (about 1 ms for 500 matches in a fresh process).
        return try database.query("""
            WITH matches AS MATERIALIZED (
                SELECT rowid AS number, bm25(documents, \(weights)) AS rank FROM documents WHERE documents MATCH ?1\(exclusion)
            ), cut AS (SELECT rank FROM matches ORDER BY rank LIMIT 1 OFFSET ?\(limitIndex + 2))
            SELECT m.number, m.rank FROM matches m JOIN recordings r ON r.number = m.number
            WHERE (SELECT rank FROM cut) IS NULL OR m.rank <= (SELECT rank FROM cut)
            ORDER BY m.rank, r.created_at DESC, r.id DESC LIMIT ?\(limitIndex) OFFSET ?\(limitIndex + 1)
            """, parameters) { (number: $0.int64(0), score: -$0.double(1)) }
    }

    /// The recordings `ranked`, in that order, with their places.
    ///
    /// Only the segments `SearchPlaces.Screen` lets through become strings: the transcript column
    /// is read as bytes, one line per segment, and a segment's start (the same position in the
    /// space-separated `starts` column) is parsed only for those; the recording is decoded from its `metadata` column.
    private func results(for ranked: [(number: Int64, score: Double)], query: SearchQuery, placesPerRecording: Int) throws -> [SearchResult] {
        guard !ranked.isEmpty else { return [] }
        let statement = try database.prepare("""
            SELECT t.starts, t.transcript, \(Self.recordingColumns) FROM recordings r JOIN transcripts t ON t.number = r.number
            WHERE r.number = ?
            """)
        // Common words of a longer query make no place on their own (`the` alone says nothing of
        // where `the garden` is); a query of common words only is placed by all of them.
        let significant = Set(query.terms.indices.filter { !isCommon(query.terms[$0]) })
        let placing = significant.isEmpty ? nil : significant
        let screen = SearchPlaces.Screen(query, terms: placing)
        var results: [SearchResult] = []
        for (number, score) in ranked {
            try statement.bind([.integer(number)])
            guard try statement.step() else {
                try statement.reset()
                continue
            }
            let recording = try Self.recording(statement, from: 2)
            let segments = statement.withBytes(0) { starts in
                statement.withBytes(1) { texts in Self.screenedSegments(starts: starts, texts: texts, screen: screen) }
            }
            try statement.reset()
            let found = SearchPlaces.find(query, recording: recording, segments: segments, limit: placesPerRecording,
                                          measuring: false, placing: placing)
            results.append(SearchResult(recording: recording, score: score, hits: found.hits, matchingSegments: found.matchingSegments))
        }
        return results
    }

    /// The segments of one recording that `screen` lets through, in order: `texts` holds one
    /// segment per line, `starts` their start seconds separated by spaces (the `transcripts` columns).
    static func screenedSegments(starts: UnsafeBufferPointer<UInt8>, texts: UnsafeBufferPointer<UInt8>,
                                 screen: SearchPlaces.Screen) -> [SearchPlaces.Segment] {
        var segments: [SearchPlaces.Segment] = []
        var lineStart = 0
        var startCursor = 0
        while lineStart <= texts.count {
            var lineEnd = lineStart
            while lineEnd < texts.count, texts[lineEnd] != 0x0A { lineEnd += 1 }
            // This segment's start: the next space-separated number.
            while startCursor < starts.count, starts[startCursor] == 0x20 { startCursor += 1 }
            let numberStart = startCursor
            while startCursor < starts.count, starts[startCursor] != 0x20 { startCursor += 1 }
            if numberStart == startCursor && numberStart >= starts.count { break }  // more lines than starts
            let line = UnsafeBufferPointer(rebasing: texts[lineStart..<lineEnd])
            if screen.mayHold(line) {
                let number = String(decoding: UnsafeBufferPointer(rebasing: starts[numberStart..<startCursor]), as: UTF8.self)
                segments.append(SearchPlaces.Segment(startSeconds: Double(number) ?? 0, text: String(decoding: line, as: UTF8.self)))
            }
            lineStart = lineEnd + 1
        }
        return segments
    }
}
