import Foundation

/// What a streaming speech recognizer reports as audio flows in.
public enum RecognitionEvent: Sendable, Equatable {
    /// Interim (volatile) text of the utterance in progress; the next interim or final replaces it.
    case interim(String)
    /// A final segment, reported once at the end of an utterance (endpointing).
    case final(TranscriptSegment)
}

/// A streaming speech recognizer: 16 kHz mono 16-bit samples in, recognition events out.
///
/// Implemented on Linux by `PocketSphinxRecognizer`; on iOS by Apple's Speech framework.
public protocol SpeechRecognizer: AnyObject {
    /// The recognizer's language, a BCP 47 tag such as "en-US".
    var language: String { get }
    /// Feeds samples (16 kHz, mono) and returns the events they produced, in order.
    func accept(_ samples: [Int16]) throws -> [RecognitionEvent]
    /// Ends the stream: the utterance in progress, if any, becomes final.
    func finish() throws -> [RecognitionEvent]
}
