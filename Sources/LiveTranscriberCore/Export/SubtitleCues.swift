import Foundation

/// One subtitle cue: the lines shown together and when.
public struct SubtitleCue: Sendable, Equatable {
    /// Seconds from the start of the recording.
    public var startSeconds: Double
    /// Seconds from the start of the recording; at or after `startSeconds`, at or before the next cue's start.
    public var endSeconds: Double
    /// The cue's lines, top to bottom: never empty, no line empty, none containing `-->` or a line break.
    public var lines: [String]
    /// Who speaks: the `TranscriptSegment.speaker` of the segment the cue comes from; nil when unlabelled.
    public var speaker: String?
    /// The language it is spoken in when not the recording's: the `TranscriptSegment.language` of
    /// its segment (a BCP 47 tag); nil for the recording's own.
    public var language: String?

    public init(startSeconds: Double, endSeconds: Double, lines: [String], speaker: String? = nil, language: String? = nil) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.lines = lines
        self.speaker = speaker
        self.language = language
    }
}

/// Splits a transcript into subtitle cues a viewer can read (`SubtitleLayout`): the one rule both
/// subtitle formats use.
///
/// A segment whose text already fits the layout (its lines, as written, few and short enough, and
/// no longer than the cue limit when its words have times) is one cue with its own line breaks.
/// Any other segment is split at word boundaries (white space):
/// - Words take the times the recognizer gave them when the segment's words spell its text;
///   otherwise (no word times, or text edited since) each word is timed in proportion to its
///   characters within the segment, and the cue limit in seconds is not applied.
/// - Words are added to a cue in order while they fit on `maximumLines` lines of
///   `maximumLineCharacters` and, with word times, while the cue lasts at most `maximumCueSeconds`
///   from its first word's start to the last word's end. A word longer than a line is a line of its
///   own.
/// - A cue's words are broken into the fewest lines, as even as possible.
/// - The first cue of a segment starts as early as the segment does and the last one ends as late
///   as the segment, as far as the cue limit allows; a cue inside a segment lasts until the next
///   one starts (or the cue limit is reached), so a segment's text stays on screen without flicker.
///
/// - A cue shorter than `minimumCueSeconds` stays on screen into the pause after it, up to the next
///   cue's start (the last one up to the end of the audio, when known); one that would still last
///   no time is shown with the next cue (see `readable`).
///
/// Every word appears exactly once, in order. For cues `a` before `b`:
/// `a.start <= a.end <= b.start <= b.end`, given segments that are sanitized (`SegmentSanitizer`).
///
/// - Complexity: O(n · w log w) in words `n` and characters per line `w`.
public enum SubtitleCues {
    /// The cues of `segments`, which must be sanitized (ordered, not overlapping, finite times).
    /// `audioEndSeconds`: the length of the audio (seconds from its start), when known: the last
    /// cue is kept on screen no later than that (never cut shorter than its words, though).
    public static func cues(_ segments: [TranscriptSegment], layout: SubtitleLayout = .broadcast,
                            audioEndSeconds: Double? = nil) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        for segment in segments {
            cues += self.cues(of: segment, layout: layout).map { cue in
                var cue = cue
                cue.speaker = segment.speaker
                cue.language = segment.language
                return cue
            }
        }
        let end = audioEndSeconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? .infinity
        return readable(cues, layout: layout, audioEndSeconds: end)
    }

    /// `cues` with each one shorter than `layout.minimumCueSeconds` kept on screen into the pause
    /// after it, never past the next cue's start; one that still lasts no time at all (the next cue
    /// starts at the same instant) is shown with the next cue when their words fit its lines together.
    static func readable(_ cues: [SubtitleCue], layout: SubtitleLayout, audioEndSeconds: Double = .infinity) -> [SubtitleCue] {
        var shown: [SubtitleCue] = []
        var carried: SubtitleCue?
        for (index, original) in cues.enumerated() {
            var cue = original
            if let earlier = carried {
                cue.startSeconds = earlier.startSeconds
                cue.lines = lineBreaks(words(of: earlier) + words(of: cue), width: layout.maximumLineCharacters)
                carried = nil
            }
            // The last cue: up to the end of the audio, unless it starts there (then 1 s, as when unknown).
            let next = index + 1 < cues.count ? cues[index + 1].startSeconds
                : audioEndSeconds > cue.startSeconds ? audioEndSeconds : .infinity
            if cue.endSeconds - cue.startSeconds < layout.minimumCueSeconds {
                cue.endSeconds = max(cue.endSeconds, min(cue.startSeconds + layout.minimumCueSeconds, next))
            }
            if cue.endSeconds <= cue.startSeconds, index + 1 < cues.count,
               lineCount(words(of: cue) + words(of: cues[index + 1]), width: layout.maximumLineCharacters) <= layout.maximumLines {
                carried = cue
                continue
            }
            shown.append(cue)
        }
        return shown
    }

    static func words(of cue: SubtitleCue) -> [String] {
        cue.lines.flatMap { $0.split(whereSeparator: { $0.isWhitespace }).map(String.init) }
    }

    /// A word with the span it is shown for.
    struct TimedWord: Equatable {
        var text: String
        var startSeconds: Double
        var endSeconds: Double
    }

    static func cues(of segment: TranscriptSegment, layout: SubtitleLayout) -> [SubtitleCue] {
        let lines = segment.text.split(whereSeparator: { $0.isNewline })
            .map { safe($0.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else { return [] }
        let tokens = segment.text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        let timed = wordTimes(segment, tokens: tokens)
        let fits = lines.count <= layout.maximumLines
            && lines.allSatisfy { $0.count <= layout.maximumLineCharacters }
            && (timed == nil || segment.durationSeconds <= layout.maximumCueSeconds)
        if fits {
            return [SubtitleCue(startSeconds: segment.startSeconds, endSeconds: segment.endSeconds, lines: lines)]
        }
        let words = (timed ?? proportionalTimes(segment, tokens: tokens)).map {
            TimedWord(text: safe($0.text), startSeconds: $0.startSeconds, endSeconds: $0.endSeconds)
        }
        let limit = timed == nil ? Double.infinity : layout.maximumCueSeconds
        let groups = group(words, layout: layout, limit: limit)
        var cues: [SubtitleCue] = []
        for (index, group) in groups.enumerated() {
            let first = group[0], last = group[group.count - 1]
            var start = first.startSeconds
            if index == 0 {
                start = max(segment.startSeconds, min(first.startSeconds, last.endSeconds - limit))
            }
            if let previous = cues.last { start = max(start, previous.endSeconds) }
            let latest = index + 1 < groups.count ? groups[index + 1][0].startSeconds : segment.endSeconds
            let end = max(start, min(latest, max(last.endSeconds, start + limit)))
            cues.append(SubtitleCue(startSeconds: start, endSeconds: end,
                                    lines: lineBreaks(group.map(\.text), width: layout.maximumLineCharacters)))
        }
        return cues
    }

    /// The recognizer's word times when its words spell `tokens` (after splitting each at white
    /// space), made monotonic and clamped into the segment; nil otherwise.
    static func wordTimes(_ segment: TranscriptSegment, tokens: [String]) -> [TimedWord]? {
        var words: [TimedWord] = []
        var latestStart = segment.startSeconds
        for word in segment.words {
            let start = min(max(latestStart, word.startSeconds), segment.endSeconds)
            let end = min(max(start, word.endSeconds), segment.endSeconds)
            latestStart = start
            for piece in word.word.split(whereSeparator: { $0.isWhitespace }) {
                words.append(TimedWord(text: String(piece), startSeconds: start, endSeconds: end))
            }
        }
        guard !words.isEmpty, words.map(\.text) == tokens else { return nil }
        return words
    }

    /// Each token timed by its share of the segment's characters (spaces between words counted).
    static func proportionalTimes(_ segment: TranscriptSegment, tokens: [String]) -> [TimedWord] {
        let total = Double(tokens.reduce(0) { $0 + $1.count } + max(0, tokens.count - 1))
        var offset = 0
        return tokens.map { token in
            let start = segment.startSeconds + segment.durationSeconds * Double(offset) / total
            offset += token.count
            let end = segment.startSeconds + segment.durationSeconds * Double(offset) / total
            offset += 1
            return TimedWord(text: token, startSeconds: start, endSeconds: min(end, segment.endSeconds))
        }
    }

    /// Words gathered into cues, in order: a cue takes words while they fit the layout and last at
    /// most `limit` seconds; a cue always takes at least one word.
    static func group(_ words: [TimedWord], layout: SubtitleLayout, limit: Double) -> [[TimedWord]] {
        var groups: [[TimedWord]] = []
        var current: [TimedWord] = []
        for word in words {
            if let first = current.first {
                let candidate = current.map(\.text) + [word.text]
                let tooLong = word.endSeconds - first.startSeconds > limit
                if tooLong || lineCount(candidate, width: layout.maximumLineCharacters) > layout.maximumLines {
                    groups.append(current)
                    current = []
                }
            }
            current.append(word)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Lines when `words` are filled greedily into lines of `width` characters.
    static func lineCount(_ words: [String], width: Int) -> Int {
        fill(words, width: width).count
    }

    /// `words` in the fewest lines of at most `width` characters, as even as possible: the
    /// narrowest width that needs no more lines than `width` does.
    static func lineBreaks(_ words: [String], width: Int) -> [String] {
        let lines = fill(words, width: width).count
        var low = words.map(\.count).max() ?? 1, high = max(low, width)
        while low < high {
            let middle = (low + high) / 2
            if fill(words, width: middle).count <= lines { high = middle } else { low = middle + 1 }
        }
        return fill(words, width: low)
    }

    /// Greedy fill: each line takes words while they fit `width` (a longer word is a line alone).
    static func fill(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `-->` (the cue timing arrow) written `->`, so text never reads as a timing line.
    static func safe(_ text: String) -> String {
        var text = text
        while text.contains("-->") { text = text.replacingOccurrences(of: "-->", with: "->") }
        return text
    }
}
