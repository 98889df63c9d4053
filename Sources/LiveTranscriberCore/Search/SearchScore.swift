import Foundation

/// The relevance formula: Okapi BM25 over a recording's fields, each field weighted
/// (`SearchHit.weight(of:)`). The SQLite index ranks with FTS5's `bm25()` using the same
/// constants and weights; this is the same formula for the places that compute it themselves
/// (the in-memory store, the SQLite index's lists for very common words).
public enum SearchScore {
    /// Term-frequency saturation (BM25 k1).
    public static let k1 = 1.2
    /// Length normalisation (BM25 b).
    public static let b = 0.75

    /// Term counts and lengths of one recording's fields.
    public struct Statistics: Sendable, Equatable {
        /// Occurrences of each term (by its index in the query), per field.
        public var termCounts: [SearchHit.Field: [Int: Int]] = [:]
        /// Tokens per field (all tags together).
        public var lengths: [SearchHit.Field: Int] = [:]

        public init() {}

        /// Adds the counts and length of one text of `field`.
        public mutating func add(field: SearchHit.Field, termCounts counts: [Int: Int], length: Int) {
            lengths[field, default: 0] += length
            for (term, count) in counts { termCounts[field, default: [:]][term, default: 0] += count }
        }
    }

    /// BM25's term-frequency part for one term in one field of `length` tokens, when that field
    /// averages `averageLength` tokens: tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / average)).
    public static func saturation(termFrequency: Int, length: Int, averageLength: Double) -> Double {
        guard termFrequency > 0 else { return 0 }
        let tf = Double(termFrequency)
        let norm = averageLength > 0 ? Double(length) / averageLength : 1
        return tf * (k1 + 1) / (tf + k1 * (1 - b + b * norm))
    }

    /// Inverse document frequency of a term found in `matching` of `total` recordings, as FTS5
    /// computes it: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6 (a word in most recordings counts
    /// almost nothing).
    public static func inverseDocumentFrequency(matching: Int, total: Int) -> Double {
        max(1e-6, log((Double(total - matching) + 0.5) / (Double(matching) + 0.5)))
    }

    /// The score of one recording: Σ over terms of idf × Σ over fields of weight × saturation.
    public static func score(
        _ statistics: Statistics, idf: [Int: Double], averageLengths: [SearchHit.Field: Double]
    ) -> Double {
        var total = 0.0
        for (field, counts) in statistics.termCounts {
            let length = statistics.lengths[field] ?? 0
            for (term, count) in counts {
                total += (idf[term] ?? 1e-6) * SearchHit.weight(of: field)
                    * saturation(termFrequency: count, length: length, averageLength: averageLengths[field] ?? Double(length))
            }
        }
        return total
    }
}

extension SearchHit {
    /// How much a match in `field` counts: names 4, tags and speakers' names 3, summaries 2, transcripts and languages 1.
    public static func weight(of field: Field) -> Double {
        switch field {
        case .name: 4
        case .tag, .speaker: 3
        case .summary: 2
        case .transcript, .language: 1
        }
    }
}
