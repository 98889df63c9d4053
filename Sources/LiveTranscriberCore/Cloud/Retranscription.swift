import Foundation

/// What the front ends say around a re-transcription, and the rule for what is saved.
public enum Retranscription {
    /// The line shown as audio leaves the device: "Uploading the audio of 'Standup' to api.openai.com for whisper-1…".
    public static func uploadNotice(recordingName: String, host: String?, model: TranscriptionModel) -> String {
        "Uploading the audio of '\(recordingName)' to \(host ?? "the server") for \(model.rawValue)…"
    }

    /// The segments to save as the new transcript.
    ///
    /// - Throws: `RetranscriptionError.noText` when there are none: an empty answer never replaces a transcript.
    public static func transcriptToSave(_ segments: [TranscriptSegment], recordingName: String) throws -> [TranscriptSegment] {
        guard !segments.isEmpty else { throw RetranscriptionError.noText(recordingName: recordingName) }
        return segments
    }
}

/// Why a re-transcription, or its undo, changed nothing.
public enum RetranscriptionError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// The engine returned no segment; the transcript was left as it was.
    case noText(recordingName: String)
    /// A restore was asked for, but no re-transcription replaced a transcript yet.
    case noPreviousTranscript(recordingName: String)
    /// The transcription ran but was not saved: `reason` (`RetranscriptionOutcome.notSavedReason`).
    case notSaved(reason: String)

    public var description: String {
        switch self {
        case .noText(let name): return "the transcription returned no text; the transcript of '\(name)' was not changed."
        case .noPreviousTranscript(let name): return "'\(name)' has no previous transcript to restore."
        case .notSaved(let reason): return reason + "."
        }
    }

    public var errorDescription: String? { description }
}
