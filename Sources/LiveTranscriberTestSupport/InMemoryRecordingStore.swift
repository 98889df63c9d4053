import Foundation
import LiveTranscriberCore

/// A `RecordingStore` in memory, for command and engine tests: recordings, transcripts, one
/// previous transcript per recording, drafts, and audio file URLs the test provides.
///
/// It follows the same contract as `LibraryStore` (the conformance suite runs against both):
/// the same rules for names, tags, ids and drafts (`RecordingRules`), the same places in search
/// results (`SearchPlaces`) and the same ranking formula (`SearchScore`).
public final class InMemoryRecordingStore: RecordingStore, @unchecked Sendable {
    private let lock = NSLock()
    private var recordings: [Recording]
    private var transcripts: [String: [TranscriptSegment]]
    private var previous: [String: [TranscriptSegment]] = [:]
    private var audio: [String: URL]
    private var drafts: [String: [TranscriptSegment]] = [:]
    /// Where drafts get a folder for their audio file.
    private let draftsFolder: URL
    private let timeZone: TimeZone
    /// Every recording passed to `modify`, in order.
    public private(set) var updates: [Recording] = []

    /// - Parameter draftsFolder: Where drafts' audio files go (a fresh temporary folder by default).
    public init(
        recordings: [Recording] = [], transcripts: [String: [TranscriptSegment]] = [:], audio: [String: URL] = [:],
        draftsFolder: URL? = nil, timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) {
        self.recordings = recordings
        self.transcripts = transcripts
        self.audio = audio
        self.draftsFolder = draftsFolder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("lt-memory-drafts-\(UUID().uuidString)", isDirectory: true)
        self.timeZone = timeZone
    }

    // MARK: Reading

    public func list(_ request: ListRequest) throws -> [Recording] {
        let all = lock.withLock { Self.newestFirst(recordings) }.filter(request.admits)
        return Array(all.dropFirst(max(0, request.offset)).prefix(request.limit ?? .max))
    }

    public func resolve(_ reference: String) throws -> Recording {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        let all = try list()
        if reference.lowercased() == "latest", let first = all.first { return first }
        if let exact = all.first(where: { $0.id == reference }) { return exact }
        let matches = reference.isEmpty ? [] : all.filter { $0.id.hasPrefix(reference) }.map(\.id).sorted()
        if matches.count == 1, let only = all.first(where: { $0.id == matches[0] }) { return only }
        if matches.count > 1 { throw LibraryError.ambiguous(reference, matches: matches) }
        throw LibraryError.notFound(reference)
    }

    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        let query = SearchQuery(request.text)
        guard !query.isEmpty, request.limit > 0 else { return [] }
        let (all, segments) = lock.withLock { (Self.newestFirst(recordings), transcripts) }
        let found = all.map { recording in
            (recording, SearchPlaces.find(query, recording: recording,
                                          segments: (segments[recording.id] ?? []).map { SearchPlaces.Segment(startSeconds: $0.startSeconds, text: $0.text) },
                                          limit: request.placesPerRecording))
        }
        var averages: [SearchHit.Field: Double] = [:]
        for (_, places) in found {
            for (field, length) in places.statistics.lengths { averages[field, default: 0] += Double(length) / Double(found.count) }
        }
        var idf: [Int: Double] = [:]
        for index in query.terms.indices {
            let matching = found.filter { $0.1.matchedTerms.contains(index) }.count
            idf[index] = SearchScore.inverseDocumentFrequency(matching: matching, total: found.count)
        }
        let scored = found.filter { !$0.1.matchedTerms.isEmpty }.map { recording, places in
            (result: SearchResult(recording: recording, score: SearchScore.score(places.statistics, idf: idf, averageLengths: averages),
                                  hits: places.hits, matchingSegments: places.matchingSegments),
             full: places.matchedTerms.count == query.terms.count)
        }
        // Full matches first, then partial ones; best score first, then newest (the order of `all`).
        let ranked = scored.enumerated().sorted { a, b in
            if a.element.full != b.element.full { return a.element.full }
            if a.element.result.score != b.element.result.score { return a.element.result.score > b.element.result.score }
            return a.offset < b.offset
        }.map(\.element.result)
        return Array(ranked.dropFirst(max(0, request.offset)).prefix(request.limit))
    }

    public func recordings(withAudioDigest digest: String) throws -> [Recording] {
        lock.withLock { Self.newestFirst(recordings.filter { $0.audioDigest == digest }) }
    }

    public func transcript(of id: String) throws -> [TranscriptSegment] {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            return transcripts[id] ?? []
        }
    }

    public func audioFile(of id: String) throws -> URL {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }), let url = audio[id] else { throw LibraryError.notFound(id) }
            return url
        }
    }

    // MARK: Changes

    @discardableResult
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else {
                throw LibraryError.notFound(id)
            }
            change(&recordings[index])
            updates.append(recordings[index])
            return recordings[index]
        }
    }

    @discardableResult
    public func rename(_ id: String, to name: String) throws -> Recording {
        let name = try RecordingRules.name(name)
        return try modify(id) { $0.name = name }
    }

    @discardableResult
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording {
        try modify(id) { $0.tags = RecordingRules.changedTags($0.tags, adding: adding, removing: removing) }
    }

    public func delete(_ id: String, purge: Bool) throws {
        try lock.withLock {
            guard let index = recordings.firstIndex(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            recordings.remove(at: index)
            transcripts[id] = nil
            previous[id] = nil
            audio[id] = nil
        }
    }

    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            previous[id] = transcripts[id] ?? []
            transcripts[id] = segments.sorted { $0.startSeconds < $1.startSeconds }
        }
    }

    public func restorePreviousTranscript(of id: String) throws -> Bool {
        try lock.withLock {
            guard recordings.contains(where: { $0.id == id }) else { throw LibraryError.notFound(id) }
            guard let kept = previous[id] else { return false }
            previous[id] = transcripts[id] ?? []
            transcripts[id] = kept
            return true
        }
    }

    /// The transcript kept by the last replace, if any.
    public func previousTranscript(of id: String) -> [TranscriptSegment]? {
        lock.withLock { previous[id] }
    }

    // MARK: Drafts

    public func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription, name: String?, tags: [String]
    ) throws -> RecordingDraft {
        try RecordingRules.checkDraft(id: id, audio: audio)
        return try lock.withLock {
            guard !recordings.contains(where: { $0.id == id }) else {
                throw LibraryError.invalid("a recording with id '\(id)' already exists.")
            }
            guard drafts[id] == nil else { throw LibraryError.invalid("a draft with id '\(id)' already exists.") }
            let folder = draftsFolder.appendingPathComponent(id, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            drafts[id] = []
            return RecordingDraft(id: id, folder: folder, createdAt: RecordingRules.draftStart(createdAt),
                                  language: language, audio: audio, claim: nil)
        }
    }

    public func appendToJournal(_ segment: TranscriptSegment, draft: RecordingDraft) throws {
        try lock.withLock {
            guard drafts[draft.id] != nil else { throw LibraryError.notFound(draft.id) }
            drafts[draft.id]?.append(segment)
        }
    }

    /// The segments journaled for a draft not yet saved or discarded.
    public func journal(of draftID: String) -> [TranscriptSegment]? {
        lock.withLock { drafts[draftID] }
    }

    public func saveDraft(
        _ draft: RecordingDraft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment]
    ) throws -> Recording {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let recording = Recording(
            id: draft.id, name: trimmed.isEmpty ? LibraryFormat.defaultName(createdAt: draft.createdAt, timeZone: timeZone) : trimmed,
            createdAt: draft.createdAt, durationSeconds: durationSeconds, language: draft.language,
            tags: RecordingRules.tags(tags), audio: draft.audio, location: location)
        try lock.withLock {
            guard drafts.removeValue(forKey: draft.id) != nil else { throw LibraryError.notFound(draft.id) }
            recordings.append(recording)
            transcripts[draft.id] = segments.sorted { $0.startSeconds < $1.startSeconds }
            audio[draft.id] = draft.audioFile
        }
        return recording
    }

    public func discardDraft(_ draft: RecordingDraft) throws {
        lock.withLock { _ = drafts.removeValue(forKey: draft.id) }
        try? FileManager.default.removeItem(at: draft.folder)
    }

    /// Nothing to recover: an in-memory draft is never left behind by a crash.
    @discardableResult
    public func recoverDrafts() throws -> [Recording] { [] }

    private static func newestFirst(_ recordings: [Recording]) -> [Recording] {
        recordings.sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id > $1.id }
    }
}
