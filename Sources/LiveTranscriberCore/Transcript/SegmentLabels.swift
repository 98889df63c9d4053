import Foundation

/// What a transcript line names before its text, in `show` and the text exports: the speaker at
/// each change of speaker (a turn), and the language where it changes (`SegmentLanguages.changes`).
///
/// `[0:12] Anna: (de) Guten Morgen.`: Anna starts a turn, in German.
public struct SegmentLabel: Sendable, Equatable {
    /// The speaker's name (`Speaker.displayName`) when this segment starts a turn; nil otherwise.
    public var speaker: String?
    /// The language (a BCP 47 tag) when it changes here; nil otherwise.
    public var language: String?

    public init(speaker: String? = nil, language: String? = nil) {
        self.speaker = speaker
        self.language = language
    }

    /// "Anna: (de) ", "Anna: ", "(de) " or "", each part passed through `escape` first.
    public func prefix(escape: (String) -> String = { $0 }) -> String {
        (speaker.map { escape($0) + ": " } ?? "") + (language.map { "(\(escape($0))) " } ?? "")
    }

    /// One label per segment of `recording`, in order.
    public static func labels(_ segments: [TranscriptSegment], of recording: Recording) -> [SegmentLabel] {
        let languages = SegmentLanguages.changes(segments, recordingLanguage: recording.language)
        return zip(zip(segments, languages), startsTurn(segments)).map { pair, turn in
            let (segment, language) = pair
            return SegmentLabel(speaker: turn ? segment.speaker.map { recording.speaker($0).displayName } : nil, language: language)
        }
    }

    /// For each segment, true when it starts a speaker's turn: it has a speaker, and the segment
    /// before it has another one (or none, or there is none before it).
    public static func startsTurn(_ segments: [TranscriptSegment]) -> [Bool] {
        segments.indices.map { index in
            segments[index].speaker != nil && (index == 0 || segments[index - 1].speaker != segments[index].speaker)
        }
    }
}
