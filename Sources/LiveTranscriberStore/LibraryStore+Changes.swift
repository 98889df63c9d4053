import Foundation
import LiveTranscriberCore

/// Changes to saved recordings: metadata, names, tags, deletion and transcripts. Each holds the
/// write lock, writes the folder first (the truth), then updates the index.
extension LibraryStore {
    /// Reads, changes and writes a recording's metadata under the write lock, then reindexes it.
    /// A duration longer than the audio is corrected on the way (`withDurationChecked`).
    @discardableResult
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording {
        try keeper.withWriteLock {
            let folder = try folders.existingFolder(of: id)
            let stored = try folders.readMetadata(in: folder)
            var recording = stored
            change(&recording)
            recording = folders.withDurationChecked(recording, in: folder)
            let segments = try folders.readTranscript(in: folder)
            try keeper.changeInStep(index: { try $0.upsert(recording, segments: segments, inTransaction: true) },
                             files: { try self.folders.files.coordinateWriting(folder, .replacing) { try self.folders.writeMetadata(recording, in: folder) } },
                             undo: { try? self.folders.writeMetadata(stored, in: folder) })
            return recording
        }
    }

    /// Replaces the transcript, and the recording's language when `language` is given, in one
    /// change. The transcript replaced is kept as `transcript.previous.json` with the language the
    /// recording had (`PreviousTranscript`), so a restore gives back exactly that state. A
    /// `transcript.json` that cannot be read is not kept as the previous one (which stays as it
    /// was): it is set aside in the folder as `transcript.json.damaged` (`-2`, `-3`… when taken),
    /// never deleted, and the new transcript repairs the recording.
    /// - Parameter vocabulary: the terms the new transcript's recognizer was given; nil keeps the recording's.
    /// - Parameter expected: the transcript read before the new one was made; the stored one is
    ///   compared with it under the write lock, so no other process can change it between.
    /// - Throws: `LibraryError.notFound` for an unknown id; `.corrupt` when metadata.json cannot be
    ///   read; `.changedMeanwhile` when the stored transcript is not `expected` (one that cannot be read matches only `.unreadable`).
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment], language: String?,
                                  vocabulary: [String]?, speakers: [Speaker]?, notes: [String]?, expected: ExpectedTranscript) throws {
        try keeper.withWriteLock {
            let folder = try folders.existingFolder(of: id)
            if expected != .anything, !expected.matches(try? folders.readTranscript(in: folder)) {
                throw LibraryError.changedMeanwhile(id: id)
            }
            let stored = try folders.readMetadata(in: folder)
            var recording = stored
            if let language { recording.language = language }
            if let vocabulary { recording.vocabulary = vocabulary }
            if let speakers { recording.speakers = speakers }
            if let notes { recording.notes = notes }
            try swapTranscript(in: folder, stored: stored, to: recording, segments: segments.sorted { $0.startSeconds < $1.startSeconds },
                               keepingPrevious: true)
        }
    }

    /// Puts back the transcript the last `replaceTranscript` replaced, and the language and
    /// vocabulary the recording had with it (when the previous file says: files written before the language was
    /// kept do not), keeping the current transcript and language as the previous: restoring twice
    /// toggles. A current `transcript.json` that cannot be read is set aside as in
    /// `replaceTranscript`, and then no previous transcript is left.
    /// - Returns: false (nothing changed) when no previous transcript is kept.
    /// - Throws: `LibraryError.notFound` for an unknown id; `.corrupt` when metadata.json or the
    ///   previous transcript cannot be read.
    public func restorePreviousTranscript(of id: String) throws -> Bool {
        try keeper.withWriteLock {
            let folder = try folders.existingFolder(of: id)
            let previousFile = folder.appendingPathComponent(LibraryLayout.previousTranscript)
            guard let data = try DurableFile.readIfPresent(previousFile) else { return false }
            let previous: PreviousTranscript
            do {
                previous = try PreviousTranscript.decode(data)
            } catch {
                throw LibraryError.corrupt(path: previousFile.path, reason: RecordingFolders.reason(error))
            }
            let stored = try folders.readMetadata(in: folder)
            var recording = stored
            if let language = previous.language { recording.language = language }
            recording.vocabulary = previous.vocabulary
            if let speakers = previous.speakers { recording.speakers = speakers }
            if let notes = previous.notes { recording.notes = notes }
            try swapTranscript(in: folder, stored: stored, to: recording, segments: previous.segments, keepingPrevious: false)
            return true
        }
    }

    /// The translation kept in `translation.json`, in start order; nil when the recording has none.
    /// - Throws: `LibraryError.notFound`; `.corrupt` when the file cannot be read.
    public func translation(of id: String) throws -> [TranscriptSegment]? {
        let file = try folders.existingFolder(of: id).appendingPathComponent(LibraryLayout.translation)
        guard let data = try DurableFile.readIfPresent(file) else { return nil }
        do {
            return try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: data)
        } catch {
            throw LibraryError.corrupt(path: file.path, reason: RecordingFolders.reason(error))
        }
    }

    /// Writes `translation.json` and the recording's `translation` in step, under the write lock;
    /// on a failure both are put back as they were.
    public func saveTranslation(of id: String, _ segments: [TranscriptSegment], language: String) throws {
        try keeper.withWriteLock {
            let folder = try folders.existingFolder(of: id)
            let file = folder.appendingPathComponent(LibraryLayout.translation)
            let stored = try folders.readMetadata(in: folder)
            var recording = stored
            recording.translation = language
            let transcript = try folders.readTranscript(in: folder)
            let before = try DurableFile.readIfPresent(file)
            try keeper.changeInStep(index: { try $0.upsert(recording, segments: transcript, inTransaction: true) }, files: {
                try folders.files.coordinateWriting(folder, .replacing) {
                    try DurableFile.write(try JSONEncoder.liveTranscriber.encode(segments.sorted { $0.startSeconds < $1.startSeconds }), to: file)
                    if recording != stored { try folders.writeMetadata(recording, in: folder) }
                }
            }, undo: {
                Self.putBack(before, at: file)
                if recording != stored { try? folders.writeMetadata(stored, in: folder) }
            })
        }
    }

    /// Writes `segments` as the transcript and `recording` as the metadata (when it differs from
    /// `stored`), and the transcript and language they replace as the previous transcript. A
    /// current transcript that cannot be read goes to a `.damaged` copy instead; the previous file
    /// is then left as it was when `keepingPrevious`, else removed. Files and index change in step.
    private func swapTranscript(in folder: URL, stored: Recording, to recording: Recording, segments: [TranscriptSegment],
                                keepingPrevious: Bool) throws {
        let current = folder.appendingPathComponent(LibraryLayout.transcript)
        let previousFile = folder.appendingPathComponent(LibraryLayout.previousTranscript)
        let saved = (try DurableFile.readIfPresent(current), try DurableFile.readIfPresent(previousFile))
        // No transcript.json is an empty transcript; one that cannot be decoded is damaged.
        let replaced: [TranscriptSegment]?
        if let data = saved.0 { replaced = try? JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: data) } else { replaced = [] }
        let damagedCopy = replaced == nil ? Self.freeName(LibraryLayout.transcript + ".damaged", in: folder) : nil
        try keeper.changeInStep(index: { try $0.upsert(recording, segments: segments, inTransaction: true) }, files: {
            try folders.files.coordinateWriting(folder, .replacing) {
                if let replaced {
                    try DurableFile.write(try PreviousTranscript(language: stored.language, segments: replaced, vocabulary: stored.vocabulary,
                                                               speakers: stored.speakers, notes: stored.notes).encoded(), to: previousFile)
                } else if let damagedCopy, let damaged = saved.0 {
                    try DurableFile.write(damaged, to: damagedCopy)
                    if !keepingPrevious { unlink(previousFile.path) }
                }
                try DurableFile.write(try JSONEncoder.liveTranscriber.encode(segments), to: current)
                if recording != stored { try folders.writeMetadata(recording, in: folder) }
            }
        }, undo: {
            Self.putBack(saved.0, at: current)
            Self.putBack(saved.1, at: previousFile)
            if let damagedCopy { unlink(damagedCopy.path) }
            if recording != stored { try? folders.writeMetadata(stored, in: folder) }
        })
    }

    /// Writes `data` back to `url`, or removes `url` when there was no file (undoing a change).
    static func putBack(_ data: Data?, at url: URL) {
        if let data { try? DurableFile.write(data, to: url) } else { unlink(url.path) }
    }

    /// `name` in `folder`, or `name-2`, `name-3`… : the first that does not exist.
    static func freeName(_ name: String, in folder: URL) -> URL {
        var candidate = folder.appendingPathComponent(name)
        var number = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            number += 1
            candidate = folder.appendingPathComponent("\(name)-\(number)")
        }
        return candidate
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
        try keeper.withWriteLock(freeingSpace: purge) {
            let folder = try folders.existingFolder(of: id)
            let destination = Self.freeName(purge ? ".purge-\(id)-\(getpid())" : id, in: folders.trash)
            do {
                try keeper.changeInStep(index: { try $0.remove(id: id, inTransaction: true) },
                                 files: { try folders.files.coordinateWriting(folder, .moving(to: destination)) { try DurableFile.rename(folder, to: destination) } },
                                 undo: { try? DurableFile.rename(destination, to: folder) })
            } catch where purge && (writeBlock != nil || IndexKeeper.isOutOfSpace(error)) {
                // A full disk cannot take even the index's journal: free the space first (the files
                // are the truth), then unindex; if that still fails, the next opening drops the id.
                try folders.files.coordinateWriting(folder, .moving(to: destination)) { try DurableFile.rename(folder, to: destination) }
                try FileManager.default.removeItem(at: destination)
                try? keeper.withIndex { try $0.remove(id: id) }
                return
            }
            if purge { try FileManager.default.removeItem(at: destination) }
        }
    }

    /// Moves recording `id` to the trash.
    public func delete(_ id: String) throws { try delete(id, purge: false) }
}
