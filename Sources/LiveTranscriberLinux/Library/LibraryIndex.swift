import Foundation
import LiveTranscriberCore

/// The SQLite index behind `list` and `search`: a cache of the recording folders.
///
/// Tables:
/// - `recordings(id, name, created_at, metadata)`: one row per recording, `metadata` its JSON.
/// - `entries(id, recording_id, field, start, text, words, folded, cjk)`: one row per searchable
///   text: the name, each tag, the summary, the language, each transcript segment (with its start
///   time). `words` is the text with a space where CJK meets Latin letters or digits
///   (`SearchQuery.separatingScripts`), so `swift` finds "我们用Swift开发", folded by
///   `SearchQuery.fold` (the query's fold, so "Straße" is stored as "strasse"); `folded` is the
///   text folded the same way without the spaces; `cjk` is 1 when the text has Chinese,
///   Japanese or Korean characters.
/// - `entries_words`: FTS5 over `entries.words` (external content), `unicode61 remove_diacritics 2`,
///   prefix indexes.
/// - `entries_trigram`: FTS5 over `folded` of the CJK rows only, `trigram`, for CJK substrings of
///   3+ characters (a CJK query can only match text with CJK characters, and a trigram index of
///   every row would triple the index's size and build time).
/// Triggers on `entries` keep both in step.
final class LibraryIndex {
    static let schemaVersion = 4
    let database: SQLiteDatabase
    /// True when the schema was (re)created and the index must be filled from the folders.
    private(set) var isNew = false

    /// Opens or creates the index at `file`.
    /// - Throws: `SQLiteError` (code 26, SQLITE_NOTADB, or 11, SQLITE_CORRUPT, for a damaged file).
    init(file: URL) throws {
        database = try SQLiteDatabase(path: file.path)
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        let version = try database.query("PRAGMA user_version") { Int($0.int64(0)) }.first ?? 0
        if version != Self.schemaVersion {
            try database.writeTransaction {
                // Another process may have created it while we waited for the write lock.
                let current = try database.query("PRAGMA user_version") { Int($0.int64(0)) }.first ?? 0
                guard current != Self.schemaVersion else { return }
                try database.execute(Self.dropSQL + Self.schemaSQL + "PRAGMA user_version = \(Self.schemaVersion);")
                isNew = true
            }
        }
    }

    private static let dropSQL = """
        DROP TRIGGER IF EXISTS entries_ai; DROP TRIGGER IF EXISTS entries_ad;
        DROP TABLE IF EXISTS entries_words; DROP TABLE IF EXISTS entries_trigram;
        DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS recordings;

        """

    private static let schemaSQL = """
        CREATE TABLE recordings(
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            created_at REAL NOT NULL,
            metadata TEXT NOT NULL
        );
        CREATE INDEX recordings_by_date ON recordings(created_at);
        CREATE TABLE entries(
            id INTEGER PRIMARY KEY,
            recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
            field TEXT NOT NULL,
            start REAL,
            text TEXT NOT NULL,
            words TEXT NOT NULL,
            folded TEXT NOT NULL,
            cjk INTEGER NOT NULL
        );
        CREATE INDEX entries_by_recording ON entries(recording_id);
        CREATE VIRTUAL TABLE entries_words USING fts5(
            words, content='entries', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3'
        );
        CREATE VIRTUAL TABLE entries_trigram USING fts5(folded, tokenize='trigram');
        CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
            INSERT INTO entries_words(rowid, words) VALUES (new.id, new.words);
            INSERT INTO entries_trigram(rowid, folded) SELECT new.id, new.folded WHERE new.cjk;
        END;
        CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
            INSERT INTO entries_words(entries_words, rowid, words) VALUES ('delete', old.id, old.words);
            DELETE FROM entries_trigram WHERE rowid = old.id AND old.cjk;
        END;

        """

    // MARK: Reading

    /// Every indexed recording, newest first (ties by id, descending).
    func recordings() throws -> [Recording] {
        try database.query("SELECT metadata FROM recordings ORDER BY created_at DESC, id DESC") { row in
            try Self.decode(row.text(0))
        }
    }

    /// The ids of every indexed recording.
    func ids() throws -> Set<String> {
        Set(try database.query("SELECT id FROM recordings") { $0.text(0) })
    }

    /// The newest recording, if any.
    func latest() throws -> Recording? {
        try database.query("SELECT metadata FROM recordings ORDER BY created_at DESC, id DESC LIMIT 1") { try Self.decode($0.text(0)) }.first
    }

    /// Ids starting with `prefix`, sorted (no limit when `limit` is negative).
    func ids(withPrefix prefix: String, limit: Int = -1) throws -> [String] {
        try database.query(
            "SELECT id FROM recordings WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id LIMIT ?2",
            [.text(prefix), .integer(Int64(limit))]
        ) { $0.text(0) }
    }

    /// The indexed recording `id`, if any.
    func recording(id: String) throws -> Recording? {
        try database.query("SELECT metadata FROM recordings WHERE id = ?", [.text(id)]) { try Self.decode($0.text(0)) }.first
    }

    // MARK: Writing

    /// Replaces everything indexed for `recording` (in its own transaction unless `inTransaction`).
    func upsert(_ recording: Recording, segments: [TranscriptSegment], inTransaction: Bool = false) throws {
        let body = {
            try self.removeRows(id: recording.id)
            try self.insertRows(recording, segments: segments)
        }
        if inTransaction { try body() } else { try database.writeTransaction(body) }
    }

    /// Removes `id` from the index.
    func remove(id: String) throws {
        try database.writeTransaction { try removeRows(id: id) }
    }

    /// Replaces the whole index with `recordings`, in one transaction.
    func replaceAll(_ recordings: [(Recording, [TranscriptSegment])]) throws {
        try database.writeTransaction {
            try database.execute("DELETE FROM entries; DELETE FROM recordings;")
            for (recording, segments) in recordings {
                try insertRows(recording, segments: segments)
            }
        }
    }

    private func removeRows(id: String) throws {
        try database.run("DELETE FROM entries WHERE recording_id = ?", [.text(id)])
        try database.run("DELETE FROM recordings WHERE id = ?", [.text(id)])
    }

    private func insertRows(_ recording: Recording, segments: [TranscriptSegment]) throws {
        let metadata = String(decoding: try JSONEncoder.liveTranscriber.encode(recording), as: UTF8.self)
        try database.run(
            "INSERT INTO recordings(id, name, created_at, metadata) VALUES (?, ?, ?, ?)",
            [.text(recording.id), .text(recording.name), .real(recording.createdAt.timeIntervalSince1970), .text(metadata)]
        )
        let insert = try database.prepare(
            "INSERT INTO entries(recording_id, field, start, text, words, folded, cjk) VALUES (?, ?, ?, ?, ?, ?, ?)")
        func add(_ field: SearchHit.Field, _ text: String, start: Double? = nil) throws {
            guard text.contains(where: { !$0.isWhitespace }) else { return }
            try insert.bind([
                .text(recording.id), .text(field.rawValue), start.map(SQLiteValue.real) ?? .null,
                .text(text), .text(SearchQuery.fold(SearchQuery.separatingScripts(text))), .text(SearchQuery.fold(text)),
                .integer(text.unicodeScalars.contains(where: SearchQuery.isCJK) ? 1 : 0),
            ])
            while try insert.step() {}
            try insert.reset()
        }
        try add(.name, recording.name)
        for tag in recording.tags { try add(.tag, tag) }
        if let summary = recording.summary { try add(.summary, summary) }
        try add(.language, recording.language)
        for segment in segments { try add(.transcript, segment.text, start: segment.startSeconds) }
    }

    // MARK: Search

    /// Matches of `query`, best first, at most `limit`.
    ///
    /// Word terms go to `entries_words` (ranked by bm25, snippet by FTS5); CJK substrings of three
    /// or more characters to `entries_trigram`; shorter ones to `instr` over `entries.folded`.
    /// Every term must match the same entry. Names weigh 4×, tags 3×, summaries 2×.
    /// - Complexity: index lookups, except a query made only of one- or two-character CJK words,
    ///   which scans `entries` (linear in the library's text).
    func search(_ query: SearchQuery, limit: Int) throws -> [SearchHit] {
        guard !query.isEmpty, limit > 0 else { return [] }
        let weight = "(CASE e.field WHEN 'name' THEN 4.0 WHEN 'tag' THEN 3.0 WHEN 'summary' THEN 2.0 ELSE 1.0 END)"
        var parameters: [SQLiteValue] = []
        var conditions: [String] = []
        let from: String
        let rank: String
        let snippet: String
        if let words = query.wordMatchExpression {
            from = "entries_words JOIN entries e ON e.id = entries_words.rowid"
            conditions.append("entries_words MATCH ?")
            parameters.append(.text(words))
            rank = "bm25(entries_words) * \(weight)"
            snippet = "NULL"  // `words` holds folded text: the snippet is marked on the original below
            if let trigram = query.trigramMatchExpression {
                conditions.append("e.id IN (SELECT rowid FROM entries_trigram WHERE entries_trigram MATCH ?)")
                parameters.append(.text(trigram))
            }
        } else if let trigram = query.trigramMatchExpression {
            from = "entries_trigram JOIN entries e ON e.id = entries_trigram.rowid"
            conditions.append("entries_trigram MATCH ?")
            parameters.append(.text(trigram))
            rank = "bm25(entries_trigram) * \(weight)"
            snippet = "NULL"
        } else {
            from = "entries e"
            rank = "-\(weight)"
            snippet = "NULL"
        }
        if !query.substrings.isEmpty {
            conditions.append("e.cjk = 1")
        }
        for substring in query.shortSubstrings {
            conditions.append("instr(e.folded, ?) > 0")
            parameters.append(.text(substring))
        }
        let sql = """
            SELECT e.recording_id, r.name, r.created_at, e.field, e.start, \(snippet), \(rank) AS score, e.text
            FROM \(from) JOIN recordings r ON r.id = e.recording_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY score, r.created_at DESC, e.start
            LIMIT ?
            """
        parameters.append(.integer(Int64(limit)))
        return try database.query(sql, parameters) { row in
            let text = row.text(7)
            let marked = row.optionalText(5) ?? SearchSnippet.mark(text, substrings: query.substrings, words: query.words)
            return SearchHit(
                recordingID: row.text(0), recordingName: row.text(1),
                createdAt: Date(timeIntervalSince1970: row.double(2)),
                field: SearchHit.Field(rawValue: row.text(3)) ?? .transcript,
                startSeconds: row.optionalDouble(4), markedSnippet: marked, score: -row.double(6)
            )
        }
    }

    private static func decode(_ json: String) throws -> Recording {
        try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(json.utf8))
    }
}
