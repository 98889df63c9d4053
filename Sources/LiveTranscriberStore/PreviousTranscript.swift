import Foundation
import LiveTranscriberCore

/// `transcript.previous.json`: the transcript the last replace (a re-transcription) replaced, with
/// the language the recording had then, so that a restore gives back exactly the earlier state.
///
/// Written as `{"language": "en-US", "segments": [...]}`, with `"vocabulary": [...]` when the
/// recording had one. Files written before the language was kept are a bare array of segments:
/// they read with `language` nil, and a restore of one keeps the recording's language. A file
/// without `vocabulary` went with none (vocabularies came after both forms).
struct PreviousTranscript: Codable, Equatable {
    /// BCP 47 tag the recording had with these segments; nil when not known (an older file).
    var language: String?
    /// The final segments, in start order.
    var segments: [TranscriptSegment]
    /// The vocabulary the recording had with these segments (`Recording.vocabulary`), empty for none.
    var vocabulary: [String]
    /// The speakers the recording had with these segments (`Recording.speakers`); nil in files
    /// written before speakers were kept (a restore then keeps the recording's).
    var speakers: [Speaker]?
    /// The notes the recording had with these segments (`Recording.notes`); nil in files written
    /// before notes were kept (a restore then keeps the recording's).
    var notes: [String]?

    init(language: String?, segments: [TranscriptSegment], vocabulary: [String] = [], speakers: [Speaker]? = nil, notes: [String]? = nil) {
        self.language = language
        self.segments = segments
        self.vocabulary = vocabulary
        self.speakers = speakers
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey { case language, segments, vocabulary, speakers, notes }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(segments, forKey: .segments)
        if !vocabulary.isEmpty { try container.encode(vocabulary, forKey: .vocabulary) }
        // Speakers and notes are written even when empty, so a restore clears those of the
        // transcript it replaces instead of keeping them (only older files lack the keys).
        try container.encodeIfPresent(speakers, forKey: .speakers)
        try container.encodeIfPresent(notes, forKey: .notes)
    }

    init(from decoder: any Decoder) throws {
        if let segments = try? decoder.singleValueContainer().decode([TranscriptSegment].self) {
            self.init(language: nil, segments: segments)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(language: try container.decodeIfPresent(String.self, forKey: .language),
                  segments: try container.decode([TranscriptSegment].self, forKey: .segments),
                  vocabulary: try container.decodeIfPresent([String].self, forKey: .vocabulary) ?? [],
                  speakers: try container.decodeIfPresent([Speaker].self, forKey: .speakers),
                  notes: try container.decodeIfPresent([String].self, forKey: .notes))
    }

    /// Reads `data`. Throws `DecodingError` when it is neither form.
    static func decode(_ data: Data) throws -> PreviousTranscript {
        try JSONDecoder.liveTranscriber.decode(PreviousTranscript.self, from: data)
    }

    func encoded() throws -> Data { try JSONEncoder.liveTranscriber.encode(self) }
}
