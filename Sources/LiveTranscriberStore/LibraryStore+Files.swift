import Foundation
import LiveTranscriberCore

/// A recording's folder: where it is, reading and writing its JSON files, ids.
extension LibraryStore {
    /// A new id for a recording started at `date` (`RecordingID.new`).
    public static func newRecordingID(date: Date) -> String {
        RecordingID.new(date: date)
    }

    func folder(of id: String) -> URL {
        recordingsFolder.appendingPathComponent(id, isDirectory: true)
    }

    func audioFile(in folder: URL, format: String) -> URL {
        folder.appendingPathComponent("audio.\(format)")
    }

    /// The folder of saved recording `id`; throws `.notFound` for a missing or unsafe id.
    func existingFolder(of id: String) throws -> URL {
        guard Self.isSafeID(id) else { throw LibraryError.notFound(id) }
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
    /// corrected one is written back to `metadata.json` when the library can be changed.
    /// The caller holds the write lock.
    func readMetadataForIndex(in folder: URL) throws -> Recording {
        let stored = try readMetadata(in: folder)
        let checked = withDurationChecked(stored, in: folder)
        if checked != stored && writeBlockedReason == nil {
            // A failed write is not worth failing the rebuild over: the index holds the corrected
            // duration either way, and the next reindex or read of the recording writes it again.
            try? writeMetadata(checked, in: folder)
        }
        return checked
    }

    func writeMetadata(_ recording: Recording, in folder: URL) throws {
        try DurableFile.write(try JSONEncoder.liveTranscriber.encode(recording), to: folder.appendingPathComponent(LibraryLayout.metadata))
    }

    /// Names of the folders under `recordings/` (hidden ones and stray files excluded).
    func recordingFolderNames() throws -> [String] {
        try Self.folderNames(in: recordingsFolder)
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

    /// The tag rules of `RecordingTags`, cleaning rather than refusing (for saves and recovery).
    static func normalizedTags(_ tags: [String]) -> [String] {
        RecordingTags.cleaned(tags)
    }

    /// True for an id that names one folder (`RecordingID.isSafe`).
    static func isSafeID(_ id: String) -> Bool {
        RecordingID.isSafe(id)
    }

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
