import Foundation

/// One recognized word with its time span.
///
/// Its times are whole milliseconds (`TranscriptTime.rounded`), whatever they are made or set
/// from, so no output prints float noise such as 4.5040000000000004.
public struct WordTiming: Sendable, Equatable, Hashable, Codable {
    /// The word as the recognizer spelled it, without pronunciation variants such as "(2)".
    public var word: String
    /// Seconds from the start of the recording, whole milliseconds.
    public var startSeconds: Double { didSet { startSeconds = TranscriptTime.rounded(startSeconds) } }
    /// Seconds from the start of the recording, whole milliseconds; at or after `startSeconds`.
    public var endSeconds: Double { didSet { endSeconds = TranscriptTime.rounded(endSeconds) } }

    /// - Parameters:
    ///   - startSeconds: seconds from the start of the recording; kept to whole milliseconds.
    ///   - endSeconds: seconds from the start of the recording; kept to whole milliseconds.
    public init(word: String, startSeconds: Double, endSeconds: Double) {
        self.word = word
        self.startSeconds = TranscriptTime.rounded(startSeconds)
        self.endSeconds = TranscriptTime.rounded(endSeconds)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(word: try container.decode(String.self, forKey: .word),
                  startSeconds: try container.decode(Double.self, forKey: .startSeconds),
                  endSeconds: try container.decode(Double.self, forKey: .endSeconds))
    }

    enum CodingKeys: String, CodingKey {
        case word
        case startSeconds = "start"
        case endSeconds = "end"
    }
}

/// A final (stable) piece of transcript: one utterance between two endpoints.
///
/// JSON keys are `start`, `end`, `text` and `words`, the shape scripts rely on. Its times are
/// whole milliseconds (`TranscriptTime.rounded`), whatever they are made, set or read from (a
/// transcript saved before holds them as an engine summed them), so `end` prints as 4.504, never
/// 4.5040000000000004.
public struct TranscriptSegment: Sendable, Equatable, Hashable, Codable {
    /// The recognized text of the utterance.
    public var text: String
    /// Seconds from the start of the recording, whole milliseconds.
    public var startSeconds: Double { didSet { startSeconds = TranscriptTime.rounded(startSeconds) } }
    /// Seconds from the start of the recording, whole milliseconds; at or after `startSeconds`.
    public var endSeconds: Double { didSet { endSeconds = TranscriptTime.rounded(endSeconds) } }
    /// Word timings, in order; may be empty when the engine gives none.
    public var words: [WordTiming]
    /// The language of this stretch of speech, a BCP 47 tag ("de"), when it is not the recording's
    /// (`Recording.language`); nil for the recording's own. JSON key `language`, absent when nil.
    public var language: String?
    /// Who said it: a `Speaker.id` of the recording's `speakers` ("S1"), when speakers were
    /// labelled (`SpeakerAttribution`); nil otherwise. JSON key `speaker`, absent when nil.
    public var speaker: String?

    /// - Parameters:
    ///   - startSeconds: seconds from the start of the recording; kept to whole milliseconds.
    ///   - endSeconds: seconds from the start of the recording; kept to whole milliseconds.
    ///   - language: BCP 47 tag when the segment is not in the recording's language; nil otherwise.
    public init(text: String, startSeconds: Double, endSeconds: Double, words: [WordTiming] = [], language: String? = nil,
                speaker: String? = nil) {
        self.text = text
        self.startSeconds = TranscriptTime.rounded(startSeconds)
        self.endSeconds = TranscriptTime.rounded(endSeconds)
        self.words = words
        self.language = language
        self.speaker = speaker
    }

    /// Seconds; never negative.
    public var durationSeconds: Double { max(0, endSeconds - startSeconds) }

    enum CodingKeys: String, CodingKey {
        case text
        case startSeconds = "start"
        case endSeconds = "end"
        case words
        case language
        case speaker
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(text: try container.decode(String.self, forKey: .text),
                  startSeconds: try container.decode(Double.self, forKey: .startSeconds),
                  endSeconds: try container.decode(Double.self, forKey: .endSeconds),
                  words: try container.decodeIfPresent([WordTiming].self, forKey: .words) ?? [],
                  language: try container.decodeIfPresent(String.self, forKey: .language),
                  speaker: try container.decodeIfPresent(String.self, forKey: .speaker))
    }
}
