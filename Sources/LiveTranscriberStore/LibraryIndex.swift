import Foundation
import LiveTranscriberCore

/// The SQLite index behind `list` and `search`: a cache of the recording folders.
///
/// Tables (schema 8):
/// - `recordings(number, id, created_at, audio_digest, metadata)`: one row per recording. The
///   whole `Recording` is the `metadata` column (its `Codable` JSON, compact), so a field added to
///   `Recording` is indexed, listed and searched with no change here; only what SQL filters or
///   sorts on is a column of its own (id, creation date, audio digest; tags in `recording_tags`).
/// - `transcripts(number, starts, transcript)`: each recording's segments' start seconds
///   (space-separated) and texts (one per line), read to find the places inside a found recording.
/// - `recording_tags(tag, created_at, id)`: one row per tag (`TextFolding.caseKey`, the tag
///   identity rule), for `list --tag` pages.
/// - `documents`: FTS5, one contentless document per recording (rowid = `recordings.number`),
///   columns name, tags, summary, language, transcript, holding `SearchText.indexText` of each
///   (folded tokens; every CJK character its own token), `prefix='2 3'`. Ranking asks BM25 over
///   10,000 documents at most for 10,000 recordings, however many segments match.
/// - `common_terms(term, score, number)`: for words in a fifth or more of the recordings (`the`),
///   each recording's BM25 score for that word alone, so such a word is ranked by reading the
///   best rows of an index rather than scoring every recording (see `LibraryIndex+Search`).
///   FTS5 keeps up to 16 MB of new terms in memory before writing a segment (`hashsize`), so a
///   rebuild writes fewer, larger segments and merges less.
/// - `common_absent(term, number)`: for common words in nine tenths or more of the recordings
///   (near-universal: `the`, `a`), the recordings that lack each, so such a word filters a longer
///   query by reading a few hundred rows rather than seeking through its position list.
/// - `state(key, value)`: the generation the index was last brought in step with, the
///   recordings folder's stamp at that time, the common and the near-universal words, the average
///   field lengths and the recording folders the last rebuild could not read (`unreadable`).
final class LibraryIndex {
    static let schemaVersion = 9
    let database: SQLiteDatabase
    /// True when the schema was (re)created and the index must be filled from the folders.
    var isNew = false
    /// Cached `state` values for this connection (reloaded by `loadState`).
    var commonTerms: Set<String> = []
    /// The common words with a `common_absent` list.
    var universalTerms: Set<String> = []
    var averageLengths: [SearchHit.Field: Double] = [:]
    /// Tokens per field summed over the recordings indexed so far, while `replaceAll` runs.
    var lengthTotals: [SearchHit.Field: Int]?
    /// True when pages are read through a memory map (see `init(file:mapped:)`).
    let mapped: Bool

    /// Opens or creates the index at `file`. `mapped`: pages are read through a memory map of up
    /// to 1 GiB (`true`: fastest for a process that searches again and again, such as an app) or
    /// copied with read(2) (`false`: cheaper for a process that answers one command and exits,
    /// which would map, fault in and unmap every page it reads).
    /// - Throws: `SQLiteError` (code 26, SQLITE_NOTADB, or 11, SQLITE_CORRUPT, for a damaged file).
    init(file: URL, mapped: Bool = true) throws {
        self.mapped = mapped
        database = try SQLiteDatabase(path: file.path)
        // The map size is set before the first read: a map set up and then dropped costs as much as it saves.
        try readThroughMemoryMap(mapped)
        // Several processes opening a library that does not exist yet (imports started at once)
        // race to put the new file in WAL mode: the losers see SQLITE_BUSY or an I/O error from
        // the shared-memory file being made, and try again shortly (bounded: about 2 s).
        var attempts = 0
        while true {
            do {
                try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
                break
            } catch let error as SQLiteError where [SQLiteError.busy, SQLiteError.ioError].contains(error.primaryCode) && attempts < 100 {
                attempts += 1
                usleep(20_000)
            }
        }
        let version = try database.query("PRAGMA user_version") { Int($0.int64(0)) }.first ?? 0
        if version != Self.schemaVersion {
            try database.writeTransaction {
                // Another process may have created it while we waited for the write lock.
                let current = try database.query("PRAGMA user_version") { Int($0.int64(0)) }.first ?? 0
                guard current != Self.schemaVersion else { return }
                try dropEverything()
                try database.execute(Self.schemaSQL + "PRAGMA user_version = \(Self.schemaVersion);")
                isNew = true
            }
        }
        try loadState()
    }

    /// Reads pages through a memory map of up to 1 GiB (`true`) or copies them with read(2) (`false`).
    private func readThroughMemoryMap(_ mapped: Bool) throws {
        try database.execute("PRAGMA mmap_size=\(mapped ? 1_073_741_824 : 0)")
    }

    /// Opens the index at `file` for reading only, without locks, journal or shared memory
    /// (`immutable=1`): for a library on read-only media or a full disk.
    /// - Throws: `SQLiteError` when it cannot be read; `LibraryIndexError.schemaMismatch` for another schema version.
    init(readingOnly file: URL) throws {
        mapped = false
        var components = URLComponents()
        components.scheme = "file"
        components.path = file.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        database = try SQLiteDatabase(path: components.string ?? "file:\(file.path)?immutable=1",
                                      flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
        let version = try database.query("PRAGMA user_version") { Int($0.int64(0)) }.first ?? 0
        guard version == Self.schemaVersion else {
            throw LibraryIndexError.schemaMismatch(found: version, expected: Self.schemaVersion)
        }
        try loadState()
    }

    /// An empty index in memory, to be filled from the folders: for a library whose index file
    /// cannot be used and cannot be rebuilt on disk (read-only media, a full disk).
    init(inMemory: Void) throws {
        mapped = false
        database = try SQLiteDatabase(path: ":memory:")
        try database.execute(Self.schemaSQL + "PRAGMA user_version = \(Self.schemaVersion);")
        isNew = true
        try loadState()
    }

    /// Drops every table of any schema version (virtual tables first: they drop their shadow tables).
    private func dropEverything() throws {
        let virtual = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'") { $0.text(0) }
        for name in virtual { try database.execute("DROP TABLE IF EXISTS \"\(name)\"") }
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { $0.text(0) }
        for name in tables { try database.execute("DROP TABLE IF EXISTS \"\(name)\"") }
    }

    private static let schemaSQL = """
        CREATE TABLE recordings(
            number INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL,
            audio_digest TEXT,
            metadata TEXT NOT NULL
        );
        CREATE TABLE transcripts(
            number INTEGER PRIMARY KEY,
            starts TEXT NOT NULL,
            transcript TEXT NOT NULL
        );
        CREATE INDEX recordings_by_date ON recordings(created_at, id);
        CREATE INDEX recordings_by_digest ON recordings(audio_digest) WHERE audio_digest IS NOT NULL;
        CREATE TABLE recording_tags(
            tag TEXT NOT NULL, created_at REAL NOT NULL, id TEXT NOT NULL,
            PRIMARY KEY(tag, created_at, id)
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE documents USING fts5(
            name, tags, summary, language, transcript, speakers,
            content='', tokenize='unicode61 remove_diacritics 2', prefix='2 3'
        );
        CREATE TABLE common_terms(
            term TEXT NOT NULL, score REAL NOT NULL, number INTEGER NOT NULL,
            PRIMARY KEY(term, score, number)
        ) WITHOUT ROWID;
        CREATE INDEX common_terms_by_recording ON common_terms(number);
        CREATE TABLE common_absent(
            term TEXT NOT NULL, number INTEGER NOT NULL,
            PRIMARY KEY(term, number)
        ) WITHOUT ROWID;
        CREATE INDEX common_absent_by_recording ON common_absent(number);
        CREATE TABLE state(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        INSERT INTO documents(documents, rank) VALUES ('hashsize', 16777216);

        """

    // MARK: State

    /// Reads the common words and average field lengths.
    func loadState() throws {
        let state = try self.state()
        commonTerms = Set((state["common_terms"] ?? "").split(separator: " ").map(String.init))
        universalTerms = Set((state["universal_terms"] ?? "").split(separator: " ").map(String.init))
        averageLengths = [:]
        for field in SearchHit.Field.allCases {
            if let value = state["average_\(field.rawValue)"].flatMap(Double.init) { averageLengths[field] = value }
        }
    }

    func state() throws -> [String: String] {
        Dictionary(try database.query("SELECT key, value FROM state") { ($0.text(0), $0.text(1)) }, uniquingKeysWith: { $1 })
    }

    func setState(_ values: [String: String]) throws {
        for (key, value) in values {
            try database.run("INSERT OR REPLACE INTO state(key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    /// The recording folders the last rebuild or partial reindex could not read, in id order
    /// (state key `unreadable`: ids separated by spaces; ids hold none).
    func unreadableIDs() throws -> [String] {
        let value = try database.query("SELECT value FROM state WHERE key = 'unreadable'") { $0.text(0) }.first ?? ""
        return value.split(separator: " ").map(String.init)
    }

    /// Records the recording folders that could not be read (see `unreadableIDs`).
    func setUnreadableIDs(_ ids: Set<String>) throws {
        try setState(["unreadable": ids.sorted().joined(separator: " ")])
    }

    /// The generation and recordings-folder stamp the index was last brought in step with.
    func synchronizedState() throws -> (generation: String, stamp: String)? {
        let state = try self.state()
        guard let generation = state["generation"], let stamp = state["recordings_stamp"] else { return nil }
        return (generation, stamp)
    }

    func setSynchronized(generation: String, stamp: String) throws {
        try database.writeTransaction { try setState(["generation": generation, "recordings_stamp": stamp]) }
    }

    // MARK: Reading

    /// Recordings that pass `request`'s filters, newest first (ties by id, descending), paged.
    func recordings(_ request: ListRequest) throws -> [Recording] {
        var parameters: [SQLiteValue] = []
        var sql: String
        if let tag = request.tag {
            sql = "SELECT \(Self.recordingColumns) FROM recording_tags t JOIN recordings r ON r.id = t.id WHERE t.tag = ?"
            parameters.append(.text(TextFolding.caseKey(tag.trimmingCharacters(in: .whitespaces))))
            if let since = request.since {
                sql += " AND t.created_at >= ?"
                parameters.append(.real(since.timeIntervalSince1970))
            }
            sql += " ORDER BY t.created_at DESC, t.id DESC"
        } else {
            sql = "SELECT \(Self.recordingColumns) FROM recordings r"
            if let since = request.since {
                sql += " WHERE created_at >= ?"
                parameters.append(.real(since.timeIntervalSince1970))
            }
            sql += " ORDER BY created_at DESC, id DESC"
        }
        sql += " LIMIT ? OFFSET ?"
        parameters += [.integer(Int64(request.limit ?? -1)), .integer(Int64(max(0, request.offset)))]
        return try database.query(sql, parameters) { try Self.recording($0) }
    }

    /// The ids of every indexed recording.
    func ids() throws -> Set<String> {
        Set(try database.query("SELECT id FROM recordings") { $0.text(0) })
    }

    /// The newest recording, if any.
    func latest() throws -> Recording? {
        try recordings(ListRequest(limit: 1)).first
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
        try database.query("SELECT \(Self.recordingColumns) FROM recordings r WHERE id = ?", [.text(id)]) { try Self.recording($0) }.first
    }

    /// Recordings whose `audioDigest` is `digest`, newest first.
    func recordings(withAudioDigest digest: String) throws -> [Recording] {
        try database.query("SELECT \(Self.recordingColumns) FROM recordings r WHERE audio_digest = ? ORDER BY created_at DESC, id DESC",
                           [.text(digest)]) { try Self.recording($0) }
    }

    /// For each distinct tag (by its case key, `recording_tags.tag`), the newest recording that has
    /// it (created_at, then id, descending, as `list` orders), each once, in that order.
    ///
    /// `RecordingTags.all(in:)` of these is `RecordingTags.all(in:)` of every recording: a tag's first
    /// spelling met newest first is in the newest recording that has it, and no recording listed
    /// before that one has it. Each tag is found by a seek on `recording_tags`' primary key
    /// (tag, created_at, id); only these recordings' metadata is read and decoded.
    func newestRecordingPerTag() throws -> [Recording] {
        try database.query("""
            SELECT \(Self.recordingColumns) FROM recordings r WHERE r.id IN (
                SELECT (SELECT t.id FROM recording_tags t WHERE t.tag = k.tag ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
                FROM (SELECT DISTINCT tag FROM recording_tags) k)
            ORDER BY r.created_at DESC, r.id DESC
            """) { try Self.recording($0) }
    }

    // MARK: Recording rows

    /// The `recordings` column that holds a `Recording` (table alias `r`), read by `recording(_:from:)`.
    static let recordingColumns = "r.metadata"

    /// The recording in `row`'s `recordingColumns`, starting at column `first`.
    /// - Throws: `DecodingError` when the column is not a recording's JSON (a damaged index).
    static func recording(_ row: SQLiteStatement, from first: Int32 = 0) throws -> Recording {
        try row.withBytes(first) { try metadataDecoder.decode(Recording.self, from: Data(buffer: $0)) }
    }

    /// The `recordings` columns an insert writes, with their values for `recording`: the columns SQL
    /// filters and sorts on, then the whole recording as compact JSON (ISO 8601 dates, sorted keys).
    /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite number).
    static func recordingRow(_ recording: Recording) throws -> (columns: String, values: [SQLiteValue]) {
        ("id, created_at, audio_digest, metadata",
         [.text(recording.id), .real(recording.createdAt.timeIntervalSince1970), recording.audioDigest.map(SQLiteValue.text) ?? .null,
          .text(try JSONText.line(recording))])
    }

    /// One decoder for every row (`JSONText.line`'s dates: ISO 8601).
    private static let metadataDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// An index file this program cannot use as it is.
enum LibraryIndexError: Error, Equatable {
    /// The file's schema (`PRAGMA user_version`) is another program version's: read-write, it is
    /// rebuilt; read-only (a full disk, read-only media), an index is built in memory instead.
    case schemaMismatch(found: Int, expected: Int)
}
