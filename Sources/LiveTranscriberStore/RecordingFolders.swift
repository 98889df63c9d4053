import Foundation
import LiveTranscriberCore

/// The library's folders, the truth the index is built from: where each recording's files are
/// (`LibraryLayout`), reading and writing its JSON files through the file coordinator, and the
/// duration rule that reads its audio file's header.
///
/// One of `LibraryStore`'s three parts, with `IndexKeeper` (the index, the write lock) and the
/// drafts (`LibraryStore+Drafts`). Holds no state that changes.
final class RecordingFolders {
    /// The data directory.
    let directory: URL
    /// `recordings/`, or the folder given instead (the iPhone app's iCloud Drive folder).
    let recordings: URL
    let drafts: URL
    let trash: URL
    /// Reads recordings' audio files (libsndfile on Linux, AVFoundation on iOS).
    let audioMeasure: any AudioFileMeasuring
    /// Coordinates reads and changes of recording folders with other processes (iCloud Drive).
    let files: any FileCoordinating

    init(directory: URL, recordings: URL?, audioMeasure: any AudioFileMeasuring, files: any FileCoordinating) {
        self.directory = directory
        self.recordings = recordings ?? directory.appendingPathComponent(LibraryLayout.recordings, isDirectory: true)
        drafts = directory.appendingPathComponent(LibraryLayout.drafts, isDirectory: true)
        trash = directory.appendingPathComponent(LibraryLayout.trash, isDirectory: true)
        self.audioMeasure = audioMeasure
        self.files = files
    }

    func folder(of id: String) -> URL {
        recordings.appendingPathComponent(id, isDirectory: true)
    }

    func audioFile(in folder: URL, format: StoredAudioFormat) -> URL {
        folder.appendingPathComponent(LibraryLayout.audio(format))
    }

    /// True when saved `recording`'s audio file is not in its folder (`MissingAudioFile`).
    func isAudioMissing(_ recording: Recording) -> Bool {
        !FileManager.default.fileExists(atPath: audioFile(in: folder(of: recording.id), format: recording.audio.format).path)
    }

    /// The folder of saved recording `id`; throws `.notFound` for a missing or unsafe id.
    func existingFolder(of id: String) throws -> URL {
        guard RecordingID.isSafe(id) else { throw LibraryError.notFound(id) }
        let folder = folder(of: id)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LibraryError.notFound(id)
        }
        return folder
    }

    /// The recording in `folder`'s metadata.json, its id the folder's name: the one rule for a
    /// recording's id (a folder copied in by hand holds the id of the one it was copied from, and
    /// a change to it must never reach that one).
    func readMetadata(in folder: URL) throws -> Recording {
        let file = folder.appendingPathComponent(LibraryLayout.metadata)
        var recording: Recording
        do {
            recording = try files.coordinateReading(file) { try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: file)) }
        } catch {
            throw LibraryError.corrupt(path: file.path, reason: Self.reason(error))
        }
        recording.id = folder.lastPathComponent
        return recording
    }

    func readTranscript(in folder: URL) throws -> [TranscriptSegment] {
        let file = folder.appendingPathComponent(LibraryLayout.transcript)
        do {
            return try files.coordinateReading(file) {
                guard FileManager.default.fileExists(atPath: file.path) else { return [] }
                return try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: Data(contentsOf: file))
            }
        } catch {
            throw LibraryError.corrupt(path: file.path, reason: Self.reason(error))
        }
    }

    /// Seconds of audio `file`'s header states, for the duration rule: WAV and RF64 read by the
    /// store itself (`WAVFileLength`), any other format by `audioMeasure` (libsndfile, AVFoundation;
    /// nil in a program without an audio reader, so such a duration is left as it is).
    func statedAudioSeconds(_ file: URL) -> Double? {
        WAVFileLength.seconds(of: file) ?? audioMeasure.statedSeconds(file)
    }

    /// `recording` with its duration checked against what its audio file's header states
    /// (`Recording.duration(_:audioSeconds:)`, `statedAudioSeconds`). Reads only the header, never decodes.
    func withDurationChecked(_ recording: Recording, in folder: URL) -> Recording {
        let audio = statedAudioSeconds(audioFile(in: folder, format: recording.audio.format))
        var checked = recording
        checked.durationSeconds = Recording.duration(recording.durationSeconds, audioSeconds: audio)
        return checked
    }

    /// Metadata read while indexing (`reindex`, a folder copied in), its duration checked: a
    /// corrected one is written back to `metadata.json` when `writingCorrections` (the library
    /// can be changed; the caller holds the write lock).
    func readMetadataForIndex(in folder: URL, writingCorrections: Bool) throws -> Recording {
        let stored = try readMetadata(in: folder)
        let checked = withDurationChecked(stored, in: folder)
        if checked != stored && writingCorrections {
            // A failed write is not worth failing the rebuild over: the index holds the corrected
            // duration either way, and the next reindex or read of the recording writes it again.
            try? writeMetadata(checked, in: folder)
        }
        return checked
    }

    func writeMetadata(_ recording: Recording, in folder: URL) throws {
        try DurableFile.write(try JSONEncoder.liveTranscriber.encode(recording), to: folder.appendingPathComponent(LibraryLayout.metadata))
    }

    /// Why recording folder `id` cannot be read, or nil when it reads well.
    func unreadableProblem(_ id: String) -> LibraryError? {
        let folder = folder(of: id)
        do {
            _ = try readMetadata(in: folder)
            _ = try readTranscript(in: folder)
            return nil
        } catch let error as LibraryError {
            return error
        } catch {
            return .corrupt(path: folder.path, reason: Self.reason(error))
        }
    }

    /// Names of the folders under `recordings/` (hidden ones and stray files excluded).
    func recordingFolderNames() throws -> [String] {
        try Self.folderNames(in: recordings)
    }

    /// Names of the sub-folders of `folder` that do not start with ".".
    static func folderNames(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// What is wrong with a JSON file that could not be read, in words.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return context.debugDescription
            @unknown default:
                return "invalid JSON"
            }
        }
        return (error as NSError).localizedDescription
    }
}
