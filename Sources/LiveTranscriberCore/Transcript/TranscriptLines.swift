import Foundation

/// One line of a transcript as a list shows it: the text with its start time.
public struct TranscriptLine: Sendable, Equatable, Hashable, Identifiable {
    /// Stable while the transcript grows: the final segment's index in start order, or -1 for
    /// the interim line, so a list updates rows in place.
    public var id: Int
    /// The segment's text, or the interim text.
    public var text: String
    /// Seconds from the start of the recording; nil for the interim line.
    public var startSeconds: Double?
    /// "1:02" for a final line, nil for the interim line.
    public var timeText: String?
    /// True for the interim line (drawn in amber, replaced as speech goes on).
    public var isInterim: Bool
    /// The speaker's name (`Speaker.displayName`) on the first line of each turn
    /// (`SegmentLabel.startsTurn`); nil on the other lines, the interim line and unlabelled ones.
    public var speakerName: String?
    /// The speaker's number (1 for S1, …) on every line of a labelled segment, for its colour; nil
    /// when the segment has no speaker.
    public var voice: Int?
    /// The language (a BCP 47 tag) on a line where it changes from the one before
    /// (`SegmentLanguages.changes`); nil on the others.
    public var language: String?

    public init(id: Int, text: String, startSeconds: Double?, timeText: String?, isInterim: Bool,
                speakerName: String? = nil, voice: Int? = nil, language: String? = nil) {
        self.id = id
        self.text = text
        self.startSeconds = startSeconds
        self.timeText = timeText
        self.isInterim = isInterim
        self.speakerName = speakerName
        self.voice = voice
        self.language = language
    }
}

/// The transcript as the app lists it: live (newest first, interim on top) and in a saved
/// recording (in order, with the line being played).
public enum TranscriptLines {
    /// The live transcript, newest first: the interim line (if any, and not blank) on top, then
    /// the finals from newest to oldest, each with its start time.
    public static func live(_ transcript: TranscriptAssembler) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        if let interim = transcript.interim, !interim.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            lines.append(TranscriptLine(id: -1, text: interim, startSeconds: nil, timeText: nil, isInterim: true))
        }
        for (index, segment) in transcript.finals.enumerated().reversed() {
            lines.append(final(segment, index: index))
        }
        return lines
    }

    /// A saved transcript in start order, each line with its start time, and its speaker when
    /// the segment has one: the name (the user's, else "Speaker N") on the first line of a turn.
    ///
    /// The language is named where it changes (`SegmentLanguages.changes`), as `show` does.
    ///
    /// - Parameter speakers: the recording's speakers (`Recording.speakers`), for their names.
    /// - Parameter recordingLanguage: the recording's language (`Recording.language`); nil names none.
    public static func saved(_ segments: [TranscriptSegment], speakers: [Speaker] = [], recordingLanguage: String? = nil) -> [TranscriptLine] {
        let turns = SegmentLabel.startsTurn(segments)
        let languages = recordingLanguage.map { SegmentLanguages.changes(segments, recordingLanguage: $0) }
        return segments.enumerated().map { index, segment in
            var line = final(segment, index: index)
            line.language = languages?[index]
            if let id = segment.speaker {
                line.voice = Speaker.number(of: id)
                line.speakerName = turns[index] ? Speaker.named(id, in: speakers).displayName : nil
            }
            return line
        }
    }

    /// The index of the segment being played at `seconds` (from the start of the recording): the
    /// last segment that has started. In a pause between segments the one just spoken stays
    /// highlighted, so the highlight does not flicker; nil before the first segment starts.
    /// - Parameter segments: in start order.
    /// - Complexity: O(log n) in segments.
    public static func playingIndex(at seconds: Double, in segments: [TranscriptSegment]) -> Int? {
        lastStarted(at: seconds, count: segments.count) { segments[$0].startSeconds }
    }

    /// The index of the last of `count` things in start order whose start (`start(index)`, seconds
    /// from the start of the recording) is at or before `seconds`; nil before the first, or for a
    /// time that is not finite. The one "what is playing now" rule: rows here, the web page's
    /// highlight steps (`PlaybackTranscript.step(at:)`).
    /// - Complexity: O(log count).
    public static func lastStarted(at seconds: Double, count: Int, start: (Int) -> Double) -> Int? {
        guard seconds.isFinite else { return nil }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if start(middle) <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Where playback goes when a line is tapped: the segment's start, never before 0.
    public static func seekSeconds(for segment: TranscriptSegment) -> Double {
        max(0, segment.startSeconds.isFinite ? segment.startSeconds : 0)
    }

    private static func final(_ segment: TranscriptSegment, index: Int) -> TranscriptLine {
        TranscriptLine(id: index, text: segment.text, startSeconds: segment.startSeconds,
                       timeText: ElapsedTimeFormat.clock(segment.startSeconds), isInterim: false)
    }
}
