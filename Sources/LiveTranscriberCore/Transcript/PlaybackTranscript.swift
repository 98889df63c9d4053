import Foundation

/// A saved transcript laid out for playback that follows it (the web page's Recording screen):
/// the rows, the words each row shows, and the moments the highlight moves, all computed here so
/// the page only looks up the last step at or before the audio's current time.
public struct PlaybackTranscript: Sendable, Equatable, Codable {
    /// One row: a final segment.
    public struct Row: Sendable, Equatable, Codable {
        /// The segment's index in start order (`TranscriptLine.id`).
        public var index: Int
        /// Seconds from the start of the recording; where clicking the row seeks (`TranscriptLines.seekSeconds`).
        public var start: Double
        /// "1:02" (`ElapsedTimeFormat.clock`).
        public var time: String
        /// The pieces the row shows, in order: the segment's timed words when it has them (so
        /// each can be highlighted), else its text as one piece.
        public var words: [String]
        /// Who speaks (`TranscriptSegment.speaker`, "S1"); nil when unlabelled.
        public var speaker: String?
        /// The speaker's number (1 for S1), for the page to colour the row by; nil when unlabelled.
        public var voice: Int?
        /// The speaker's name (`Speaker.displayName`) on the first row of each turn; nil on the others.
        public var speakerName: String?
        /// The language (a BCP 47 tag) on a row where it changes (`TranscriptLine.language`); nil on the others.
        public var language: String?
    }

    /// A moment the highlight moves: from `start` seconds on (until the next step), row `row`
    /// is the one being played and its word `word` is being spoken (nil: none of its words yet).
    public struct Step: Sendable, Equatable, Codable {
        public var start: Double
        public var row: Int
        public var word: Int?

        public init(start: Double, row: Int, word: Int?) {
            self.start = start
            self.row = row
            self.word = word
        }
    }

    public var rows: [Row]
    /// In order of `start`, never decreasing; before the first step nothing is highlighted.
    public var steps: [Step]

    /// The layout of `segments` (in start order).
    ///
    /// The row being played is the last one that has started (`TranscriptLines.playingIndex`);
    /// within it, the word being spoken is the last word that has started, so in a pause between
    /// words (or after the last) the word just spoken stays highlighted. Words timed before their
    /// segment's start count from the segment's start; words timed after the next segment starts
    /// are never highlighted.
    ///
    /// - Parameter speakers: the recording's speakers (`Recording.speakers`), for their names.
    /// - Parameter recordingLanguage: the recording's language, to name the language where it changes.
    public init(_ segments: [TranscriptSegment], speakers: [Speaker] = [], recordingLanguage: String? = nil) {
        rows = []
        steps = []
        let lines = TranscriptLines.saved(segments, speakers: speakers, recordingLanguage: recordingLanguage)
        for (index, segment) in segments.enumerated() {
            let start = TranscriptLines.seekSeconds(for: segment)
            let timed = segment.words.filter { !$0.word.trimmingCharacters(in: .whitespaces).isEmpty }
            rows.append(Row(index: index, start: start, time: ElapsedTimeFormat.clock(segment.startSeconds),
                            words: timed.isEmpty ? [segment.text] : timed.map { $0.word.trimmingCharacters(in: .whitespaces) },
                            speaker: segment.speaker, voice: lines[index].voice, speakerName: lines[index].speakerName,
                            language: lines[index].language))
            let next = index + 1 < segments.count ? TranscriptLines.seekSeconds(for: segments[index + 1]) : Double.infinity
            let rowStart = max(start, steps.last?.start ?? 0)
            steps.append(Step(start: rowStart, row: index, word: nil))
            guard !timed.isEmpty else { continue }
            var last = rowStart
            for (wordIndex, word) in timed.enumerated() {
                let wordStart = max(last, word.startSeconds.isFinite ? word.startSeconds : last)
                guard wordStart < next else { break }
                if steps.last?.start == wordStart, steps.last?.row == index {
                    steps[steps.count - 1].word = wordIndex
                } else {
                    steps.append(Step(start: wordStart, row: index, word: wordIndex))
                }
                last = wordStart
            }
        }
    }

    /// The step in force at `seconds` (from the start of the recording): the last one that has
    /// started; nil before the first. What the page does with `steps` on every time update.
    public func step(at seconds: Double) -> Step? {
        TranscriptLines.lastStarted(at: seconds, count: steps.count) { steps[$0].start }.map { steps[$0] }
    }
}
