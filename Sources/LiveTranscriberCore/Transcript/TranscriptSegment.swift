import Foundation

/// One recognized word with its time span.
public struct WordTiming: Sendable, Equatable, Hashable, Codable {
    /// The word as the recognizer spelled it, without pronunciation variants such as "(2)".
    public var word: String
    /// Seconds from the start of the recording.
    public var startSeconds: Double
    /// Seconds from the start of the recording; at or after `startSeconds`.
    public var endSeconds: Double

    public init(word: String, startSeconds: Double, endSeconds: Double) {
        self.word = word
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }

    enum CodingKeys: String, CodingKey {
        case word
        case startSeconds = "start"
        case endSeconds = "end"
    }
}

/// A final (stable) piece of transcript: one utterance between two endpoints.
///
/// JSON keys are `start`, `end`, `text` and `words`, the shape scripts rely on.
public struct TranscriptSegment: Sendable, Equatable, Hashable, Codable {
    /// The recognized text of the utterance.
    public var text: String
    /// Seconds from the start of the recording.
    public var startSeconds: Double
    /// Seconds from the start of the recording; at or after `startSeconds`.
    public var endSeconds: Double
    /// Word timings, in order; may be empty when the engine gives none.
    public var words: [WordTiming]

    public init(text: String, startSeconds: Double, endSeconds: Double, words: [WordTiming] = []) {
        self.text = text
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.words = words
    }

    /// Seconds; never negative.
    public var durationSeconds: Double { max(0, endSeconds - startSeconds) }

    enum CodingKeys: String, CodingKey {
        case text
        case startSeconds = "start"
        case endSeconds = "end"
        case words
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        startSeconds = try container.decode(Double.self, forKey: .startSeconds)
        endSeconds = try container.decode(Double.self, forKey: .endSeconds)
        words = try container.decodeIfPresent([WordTiming].self, forKey: .words) ?? []
    }
}
