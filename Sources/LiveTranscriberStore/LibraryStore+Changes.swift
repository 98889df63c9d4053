import Foundation
import LiveTranscriberCore

/// Changes to saved recordings: metadata, names, tags, deletion and transcripts. Each holds the
/// write lock, writes the folder first (the truth), then updates the index.
extension LibraryStore {
    /// Reads, changes and writes a recording's metadata under the write lock, then reindexes it.
    /// A duration longer than the audio is corrected on the way (`withDurationChecked`).
    @discardableResult
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            let stored = try readMetadata(in: folder)
            var recording = stored
            change(&recording)
            recording = withDurationChecked(recording, in: folder)
            let segments = try readTranscript(in: folder)
            try changeInStep(index: { try $0.upsert(recording, segments: segments, inTransaction: true) },
                             files: { try self.files.coordinateWriting(folder, .replacing) { try self.writeMetadata(recording, in: folder) } },
                             undo: { try? self.writeMetadata(stored, in: folder) })
            return recording
        }
    }

    /// Replaces the transcript; the previous one is kept as `transcript.previous.json`.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            let current = folder.appendingPathComponent(LibraryLayout.transcript)
            let sorted = segments.sorted { $0.startSeconds < $1.startSeconds }
            let previousFile = folder.appendingPathComponent(LibraryLayout.previousTranscript)
            let saved = (try DurableFile.readIfPresent(current), try DurableFile.readIfPresent(previousFile))
            let recording = try readMetadata(in: folder)
            try changeInStep(index: { try $0.upsert(recording, segments: sorted, inTransaction: true) }, files: {
                try files.coordinateWriting(folder, .replacing) {
                    if let previous = saved.0 { try DurableFile.write(previous, to: previousFile) }
                    try DurableFile.write(try JSONEncoder.liveTranscriber.encode(sorted), to: current)
                }
            }, undo: {
                Self.putBack(saved.0, at: current)
                Self.putBack(saved.1, at: previousFile)
            })
        }
    }

    /// Puts back the transcript the last `replaceTranscript` replaced, keeping the current one as
    /// the previous: restoring twice toggles.
    /// - Returns: false (nothing changed) when no previous transcript is kept.
    /// - Throws: `LibraryError.notFound` for an unknown id.
    public func restorePreviousTranscript(of id: String) throws -> Bool {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            let current = folder.appendingPathComponent(LibraryLayout.transcript)
            let previousFile = folder.appendingPathComponent(LibraryLayout.previousTranscript)
            guard let previous = try DurableFile.readIfPresent(previousFile) else { return false }
            let segments = try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: previous)
            let replaced = try DurableFile.readIfPresent(current)
            let recording = try readMetadata(in: folder)
            try changeInStep(index: { try $0.upsert(recording, segments: segments, inTransaction: true) }, files: {
                try files.coordinateWriting(folder, .replacing) {
                    if let replaced { try DurableFile.write(replaced, to: previousFile) }
                    try DurableFile.write(previous, to: current)
                }
            }, undo: {
                Self.putBack(replaced, at: current)
                Self.putBack(previous, at: previousFile)
            })
            return true
        }
    }

    /// Renames recording `id`. Leading and trailing spaces are dropped.
    /// - Throws: `LibraryError.invalid` for a name `RecordingName.validated` refuses, `.notFound`.
    @discardableResult
    public func rename(_ id: String, to name: String) throws -> Recording {
        let name = try RecordingName.validated(name)
        return try modify(id) { $0.name = name }
    }

    /// Sets recording `id`'s tags by the rules of `RecordingTags` (split at commas, trimmed,
    /// empty ones dropped, one of each regardless of case, order kept).
    /// - Throws: `LibraryError.invalid` for a tag the rules refuse, `.notFound`.
    @discardableResult
    public func setTags(_ id: String, _ tags: [String]) throws -> Recording {
        let tags = try RecordingTags.normalized(tags)
        return try modify(id) { $0.tags = tags }
    }

    /// Adds and removes tags of recording `id` against its tags as stored now (under the write
    /// lock), so concurrent `tag` commands all take effect. Tags match regardless of case; a tag
    /// both added and removed is removed.
    @discardableResult
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording {
        _ = try RecordingTags.changed([], adding: adding, removing: removing)  // refuses bad tags before anything changes
        return try modify(id) { recording in
            // Stored tags written before the rules (a comma, a hidden character) are cleaned, never a reason to fail.
            recording.tags = (try? RecordingTags.changed(RecordingTags.cleaned(recording.tags), adding: adding, removing: removing))
                ?? recording.tags
        }
    }

    /// Moves recording `id` to `trash/` (or removes it for good when `purge`) and unindexes it.
    public func delete(_ id: String, purge: Bool) throws {
        try withWriteLock(freeingSpace: purge) {
            let folder = try existingFolder(of: id)
            var destination = trashFolder.appendingPathComponent(purge ? ".purge-\(id)-\(getpid())" : id)
            var attempt = 1
            while FileManager.default.fileExists(atPath: destination.path) {
                attempt += 1
                destination = trashFolder.appendingPathComponent("\(id)-\(attempt)")
            }
            do {
                try changeInStep(index: { try $0.remove(id: id, inTransaction: true) },
                                 files: { try files.coordinateWriting(folder, .moving(to: destination)) { try DurableFile.rename(folder, to: destination) } },
                                 undo: { try? DurableFile.rename(destination, to: folder) })
            } catch where purge && (writeBlockedReason != nil || Self.isOutOfSpace(error)) {
                // A full disk cannot take even the index's journal: free the space first (the files
                // are the truth), then unindex; if that still fails, the next opening drops the id.
                try files.coordinateWriting(folder, .moving(to: destination)) { try DurableFile.rename(folder, to: destination) }
                try FileManager.default.removeItem(at: destination)
                try? withIndex { try $0.remove(id: id) }
                return
            }
            if purge { try FileManager.default.removeItem(at: destination) }
        }
    }

    /// Moves recording `id` to the trash.
    public func delete(_ id: String) throws { try delete(id, purge: false) }
}
