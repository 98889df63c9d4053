import Foundation
import LiveTranscriberCore

/// Writing the index: one recording at a time, or all of them (`reindex`).
extension LibraryIndex {
    /// A word counts as common (gets a ranked list in `common_terms`) when it is in at least this
    /// share of the recordings, in a library of at least `commonTermsMinimumRecordings`.
    static let commonTermShare = 0.2
    static let commonTermsMinimumRecordings = 500
    /// A common word counts as near-universal (gets a `common_absent` list of the recordings that
    /// lack it) when it is in at least this share of the recordings.
    static let universalTermShare = 0.9

    /// Replaces everything indexed for `recording` (in its own transaction unless `inTransaction`).
    func upsert(_ recording: Recording, segments: [TranscriptSegment], inTransaction: Bool = false) throws {
        let body = {
            try self.removeRows(id: recording.id)
            try self.insertRows(recording, segments: segments)
        }
        if inTransaction { try body() } else { try database.writeTransaction(body) }
    }

    /// Removes `id` from the index, and from the record of unreadable folders (state key
    /// `unreadable`), in its own transaction unless `inTransaction`.
    func remove(id: String, inTransaction: Bool = false) throws {
        let body = {
            try self.removeRows(id: id)
            let unreadable = try self.unreadableIDs()
            if unreadable.contains(id) { try self.setUnreadableIDs(Set(unreadable).subtracting([id])) }
        }
        if inTransaction { try body() } else { try database.writeTransaction(body) }
    }

    /// Empties the index, calls `fill` (which calls `upsert(_:segments:inTransaction: true)` per
    /// recording), then works out the common words and their ranked lists; one transaction.
    func replaceAll(_ fill: () throws -> Void) throws {
        // A larger page cache for the rebuild (fewer pages spilled to the log and written again),
        // and no memory map: the whole file mapped in would count as resident memory.
        try database.execute("PRAGMA cache_size = -65536; PRAGMA mmap_size = 0")
        defer { try? database.execute("PRAGMA cache_size = -2000; PRAGMA mmap_size = \(mapped ? 1_073_741_824 : 0)") }
        try database.writeTransaction {
            try database.execute("""
                DELETE FROM recordings; DELETE FROM transcripts; DELETE FROM recording_tags; DELETE FROM common_terms;
                DELETE FROM common_absent; DELETE FROM state;
                INSERT INTO documents(documents) VALUES ('delete-all');
                """)
            commonTerms = []
            universalTerms = []
            averageLengths = [:]
            lengthTotals = [:]
            defer { lengthTotals = nil }
            try fill()
            try computeCommonTerms()
        }
        isNew = false
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func removeRows(id: String) throws {
        guard let row = try database.query(
            "SELECT r.number, t.transcript, \(Self.recordingColumns) FROM recordings r JOIN transcripts t ON t.number = r.number WHERE r.id = ?",
            [.text(id)], { ($0.int64(0), $0.text(1), try Self.recording($0, from: 2)) }).first else { return }
        let document = Document(row.2, transcript: row.1)
        try database.run(
            "INSERT INTO documents(documents, rowid, name, tags, summary, language, transcript, speakers) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)",
            [.integer(row.0)] + document.columns.map(SQLiteValue.text))
        try database.run("DELETE FROM common_terms WHERE number = ?", [.integer(row.0)])
        try database.run("DELETE FROM common_absent WHERE number = ?", [.integer(row.0)])
        try database.run("DELETE FROM recording_tags WHERE id = ?", [.text(id)])
        try database.run("DELETE FROM recordings WHERE number = ?", [.integer(row.0)])
        try database.run("DELETE FROM transcripts WHERE number = ?", [.integer(row.0)])
    }

    private func insertRows(_ given: Recording, segments: [TranscriptSegment]) throws {
        // The index holds what metadata.json holds: a date of whole seconds (ISO 8601).
        let recording = given.createdAt.timeIntervalSince1970.rounded(.down) == given.createdAt.timeIntervalSince1970
            ? given : try JSONDecoder.liveTranscriber.decode(Recording.self, from: try JSONEncoder.liveTranscriber.encode(given))
        let starts = segments.map { String($0.startSeconds) }.joined(separator: " ")
        let transcript = segments.map { Self.oneLine($0.text) }.joined(separator: "\n")
        let row = try Self.recordingRow(recording)
        try database.run("INSERT INTO recordings(\(row.columns)) VALUES (\(row.values.map { _ in "?" }.joined(separator: ", ")))", row.values)
        let number = sqlite3LastInsertRowID()
        try database.run("INSERT INTO transcripts(number, starts, transcript) VALUES (?, ?, ?)",
                         [.integer(number), .text(starts), .text(transcript)])
        for tag in Set(recording.tags.map { TextFolding.caseKey($0.trimmingCharacters(in: .whitespaces)) }) {
            try database.run("INSERT OR IGNORE INTO recording_tags(tag, created_at, id) VALUES (?, ?, ?)",
                             [.text(tag), .real(recording.createdAt.timeIntervalSince1970), .text(recording.id)])
        }
        let document = Document(recording, transcript: transcript)
        if lengthTotals != nil {
            for (field, length) in document.lengths { lengthTotals?[field, default: 0] += length }
        }
        try database.run("INSERT INTO documents(rowid, name, tags, summary, language, transcript, speakers) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [.integer(number)] + document.columns.map(SQLiteValue.text))
        if !commonTerms.isEmpty { try insertCommonTermScores(document, number: number) }
    }

    /// Finds the words in `commonTermShare` of the recordings or more, the average length of each
    /// field, and fills `common_terms` for every recording. Runs inside `replaceAll`'s transaction.
    private func computeCommonTerms() throws {
        let total = try database.query("SELECT count(*) FROM recordings") { Int($0.int64(0)) }.first ?? 0
        var terms: [(term: String, recordings: Int)] = []
        if total >= Self.commonTermsMinimumRecordings {
            try database.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.documents_terms USING fts5vocab(main, documents, 'row')")
            terms = try database.query("SELECT term, doc FROM temp.documents_terms WHERE doc >= ? ORDER BY term",
                                       [.integer(Int64((Double(total) * Self.commonTermShare).rounded(.up)))]) { ($0.text(0), Int($0.int64(1))) }
            try database.execute("DROP TABLE temp.documents_terms")
        }
        averageLengths = (lengthTotals ?? [:]).mapValues { total > 0 ? Double($0) / Double(total) : 0 }
        commonTerms = Set(terms.map(\.term))
        let universal = terms.filter { Double($0.recordings) >= (Double(total) * Self.universalTermShare).rounded(.up) }.map(\.term)
        universalTerms = Set(universal)
        var state = ["common_terms": terms.map(\.term).joined(separator: " "), "universal_terms": universal.joined(separator: " ")]
        for (field, average) in averageLengths { state["average_\(field.rawValue)"] = String(average) }
        try setState(state)
        guard !terms.isEmpty else { return }
        // One recording at a time, so memory does not grow with the library.
        let rows = try database.prepare(
            "SELECT r.number, t.transcript, \(Self.recordingColumns) FROM recordings r JOIN transcripts t ON t.number = r.number")
        while try rows.step() {
            try insertCommonTermScores(Document(try Self.recording(rows, from: 2), transcript: rows.text(1)), number: rows.int64(0))
        }
    }

    /// One `common_terms` row per common word in `document` (its BM25 score for that word alone),
    /// and one `common_absent` row per near-universal word it lacks.
    private func insertCommonTermScores(_ document: Document, number: Int64) throws {
        let insert = try database.prepare("INSERT OR REPLACE INTO common_terms(term, score, number) VALUES (?, ?, ?)")
        let scores = document.scores(of: commonTerms, averageLengths: averageLengths)
        for (term, score) in scores {
            try insert.bind([.text(term), .real(score), .integer(number)])
            while try insert.step() {}
            try insert.reset()
        }
        let absent = universalTerms.filter { scores[$0] == nil }
        guard !absent.isEmpty else { return }
        let lacking = try database.prepare("INSERT OR REPLACE INTO common_absent(term, number) VALUES (?, ?)")
        for term in absent.sorted() {
            try lacking.bind([.text(term), .integer(number)])
            while try lacking.step() {}
            try lacking.reset()
        }
    }

    private func sqlite3LastInsertRowID() -> Int64 {
        (try? database.query("SELECT last_insert_rowid()") { $0.int64(0) }.first) ?? 0
    }

    /// `text` on one line: line breaks become spaces (the index keeps one segment per line).
    static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? String(text.map { $0.isNewline ? " " : $0 }) : text
    }
}

/// A recording's FTS5 document: each field as `SearchText.indexText`.
struct Document {
    let recording: Recording
    /// Segment texts, one per line.
    let transcript: String

    init(_ recording: Recording, transcript: String) {
        self.recording = recording
        self.transcript = transcript
    }

    /// The names the user gave the recording's speakers, one per line.
    var speakerNames: String { recording.speakers.compactMap(\.name).joined(separator: "\n") }

    /// Column values in table order: name, tags, summary, language, transcript, speakers.
    var columns: [String] {
        [recording.name, recording.tags.joined(separator: "\n"), recording.summary ?? "", recording.language, transcript, speakerNames]
            .map(SearchText.indexText)
    }

    private var fields: [(SearchHit.Field, String)] {
        [(.name, recording.name), (.tag, recording.tags.joined(separator: "\n")), (.summary, recording.summary ?? ""),
         (.language, recording.language), (.transcript, transcript), (.speaker, speakerNames)]
    }

    /// Tokens per field.
    var lengths: [SearchHit.Field: Int] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.0, SearchText.tokenCount(in: $0.1)) })
    }

    /// Each of `terms` found in the document with its BM25 score for that term alone (idf left
    /// out: it is the same for every recording).
    func scores(of terms: Set<String>, averageLengths: [SearchHit.Field: Double]) -> [String: Double] {
        let wanted = Dictionary(uniqueKeysWithValues: terms.map { (ArraySlice(Array($0.utf8)), $0) })
        var scores: [String: Double] = [:]
        for (field, text) in fields {
            let tokens = SearchText.TokenList(text)
            var counts: [String: Int] = [:]
            for index in 0..<tokens.count {
                if let term = wanted[tokens.foldedBytes(index)] { counts[term, default: 0] += 1 }
            }
            for (term, count) in counts {
                scores[term, default: 0] += SearchHit.weight(of: field) * SearchScore.saturation(
                    termFrequency: count, length: tokens.count, averageLength: averageLengths[field] ?? Double(tokens.count))
            }
        }
        return scores
    }
}
