import Foundation

/// A transcription or speaker labelling stopped before its end at the caller's request (an
/// `isCancelled` check of an engine or diarizer adapter); nothing was saved.
public struct TranscriptionCancelled: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "the transcription was stopped" }
}
