import Foundation
import LiveTranscriberCore

/// Listing, search and changes of `InMemoryRecordingStore`, by the same rules as `LibraryStore`:
/// names and tags (`RecordingName`, `RecordingTags`), places in results (`SearchPlaces`) and the
/// ranking formula (`SearchScore`, BM25 over the recordings' fields).
extension InMemoryRecordingStore {
    public func list(_ request: ListRequest) throws -> [Recording] {
        let all = locked { Self.newestFirst(recordings) }.filter(request.admits)
        return Array(all.dropFirst(max(0, request.offset)).prefix(request.limit ?? .max))
    }

    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        let query = SearchQuery(request.text)
        guard !query.isEmpty, request.limit > 0 else { return [] }
        let (all, segments) = locked { (Self.newestFirst(recordings), transcripts) }
        let found = all.map { recording in
            (recording, SearchPlaces.find(
                query, recording: recording,
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

    public func allTags() throws -> [String] { RecordingTags.all(in: try list()) }

    public func recordings(withAudioDigest digest: String) throws -> [Recording] {
        locked { Self.newestFirst(recordings.filter { $0.audioDigest == digest }) }
    }

    @discardableResult
    public func rename(_ id: String, to name: String) throws -> Recording {
        let name = try RecordingName.validated(name)
        return try modify(id) { $0.name = name }
    }

    @discardableResult
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording {
        _ = try RecordingTags.changed([], adding: adding, removing: removing)
        return try modify(id) {
            $0.tags = (try? RecordingTags.changed(RecordingTags.cleaned($0.tags), adding: adding, removing: removing)) ?? $0.tags
        }
    }

    public func delete(_ id: String, purge: Bool) throws {
        try locked {
            // An unreadable recording goes too, given its exact id.
            if let index = recordings.firstIndex(where: { $0.id == id }) {
                recordings.remove(at: index)
            } else if unreadable.removeValue(forKey: id) == nil {
                throw LibraryError.notFound(id)
            }
            transcripts[id] = nil
            previous[id] = nil
            previousLanguages[id] = nil
            audio[id] = nil
            missingAudio.remove(id)
        }
    }

    static func newestFirst(_ recordings: [Recording]) -> [Recording] {
        recordings.sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id > $1.id }
    }
}
