import Foundation

/// Who said each part of a transcript, from a diarizer's turns (`SpeakerDiarizer`): the rules every
/// front end's speaker labels follow.
///
/// 1. Turns are cleaned (`cleaned`): a voice's turns less than `joinGapSeconds` apart become one,
///    and a turn shorter than `shortestTurnSeconds` is dropped (a cough, a click, a mislabelled
///    breath), after which its neighbours may join.
/// 2. Each word goes to the voice whose turns overlap it most; a word no turn overlaps goes to the
///    nearest turn within `nearestTurnSeconds`, else to the word before it. A segment whose words
///    do not spell its text (no word times, or edited text) goes whole to the voice that overlaps
///    it most, by the same rule.
/// 3. A segment whose words change voice is split at each change (`SpeakerRun`), unless the run
///    is a blip: fewer than `shortestRunWords` words lasting less than `shortestRunSeconds`, which
///    joins the run before it (or after it, at the start).
/// 4. Voices are numbered in order of first speech in the transcript: "S1", "S2"….
/// 5. The names the user gave in an earlier transcript of the same recording carry over to the
///    voice that shares most of its time with the named one (`carryingNames`).
public enum SpeakerAttribution {
    /// Seconds: a voice's turns closer than this become one turn.
    public static let joinGapSeconds = 0.5
    /// Seconds: a turn shorter than this is dropped.
    public static let shortestTurnSeconds = 0.3
    /// Seconds: how far from every turn a word may be and still go to the nearest one.
    public static let nearestTurnSeconds = 1.0
    /// A run of fewer words than this, lasting less than `shortestRunSeconds`, does not split a segment.
    public static let shortestRunWords = 2
    /// Seconds; see `shortestRunWords`.
    public static let shortestRunSeconds = 1.0

    /// The transcript with its speakers.
    public struct Labelled: Sendable, Equatable {
        /// The segments, each with its `speaker` (nil where no voice was found near it), split where the voice changes.
        public var segments: [TranscriptSegment]
        /// The voices the segments name, in order of first speech, with the names carried over.
        public var speakers: [Speaker]
    }

    /// `segments` (in start order) labelled by `turns`; see the type's rules.
    /// - Parameters:
    ///   - turns: the diarizer's turns, in any order.
    ///   - previous: the transcript this one replaces, with its speakers and their names, for `carryingNames`.
    public static func label(_ segments: [TranscriptSegment], turns: [SpeakerTurn],
                             previous: (segments: [TranscriptSegment], speakers: [Speaker]) = ([], [])) -> Labelled {
        let turns = cleaned(turns)
        var labelled: [(segment: TranscriptSegment, voice: Int?)] = []
        for segment in segments {
            labelled += split(segment, turns: turns)
        }
        // Numbered in order of first speech.
        var numbers: [Int: Int] = [:]
        for voice in labelled.compactMap(\.voice) where numbers[voice] == nil { numbers[voice] = numbers.count + 1 }
        let result = labelled.map { item -> TranscriptSegment in
            var segment = item.segment
            segment.speaker = item.voice.flatMap { numbers[$0] }.map(Speaker.id(number:))
            return segment
        }
        let speakers = (0..<numbers.count).map { Speaker(id: Speaker.id(number: $0 + 1)) }
        return Labelled(segments: result, speakers: carryingNames(speakers, segments: result, from: previous.segments, named: previous.speakers))
    }

    /// `turns` sorted by start, a voice's turns less than `joinGapSeconds` apart joined, turns
    /// shorter than `shortestTurnSeconds` dropped (the joining is done again after).
    public static func cleaned(_ turns: [SpeakerTurn]) -> [SpeakerTurn] {
        let valid = turns.filter { $0.startSeconds.isFinite && $0.endSeconds.isFinite && $0.endSeconds > $0.startSeconds }
        let kept = joined(valid).filter { $0.durationSeconds >= shortestTurnSeconds }
        return joined(kept)
    }

    /// Each voice's turns joined where they overlap or are less than `joinGapSeconds` apart; sorted by start.
    static func joined(_ turns: [SpeakerTurn]) -> [SpeakerTurn] {
        var byVoice: [Int: [SpeakerTurn]] = [:]
        for turn in turns.sorted(by: { ($0.startSeconds, $0.endSeconds) < ($1.startSeconds, $1.endSeconds) }) {
            if let last = byVoice[turn.speaker]?.last, turn.startSeconds - last.endSeconds < joinGapSeconds {
                byVoice[turn.speaker]![byVoice[turn.speaker]!.count - 1].endSeconds = max(last.endSeconds, turn.endSeconds)
            } else {
                byVoice[turn.speaker, default: []].append(turn)
            }
        }
        return byVoice.values.joined().sorted { ($0.startSeconds, $0.speaker) < ($1.startSeconds, $1.speaker) }
    }

    /// The voice of the span `start`…`end` (seconds): the one whose turns overlap it most (the
    /// lower label on a tie); when none overlaps, the one with a turn nearest, within
    /// `nearestTurnSeconds`; nil when none is that near.
    public static func voice(_ start: Double, _ end: Double, turns: [SpeakerTurn]) -> Int? {
        var shared: [Int: Double] = [:]
        for turn in turns {
            let overlap = turn.overlap(start, end)
            if overlap > 0 { shared[turn.speaker, default: 0] += overlap }
        }
        if let best = shared.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) { return best.key }
        let distances = turns.map { turn in (turn.speaker, max(turn.startSeconds - end, start - turn.endSeconds)) }
        guard let nearest = distances.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), nearest.1 <= nearestTurnSeconds else { return nil }
        return nearest.0
    }

    /// `segment` with the voice of each part: whole, or split where its words change voice.
    static func split(_ segment: TranscriptSegment, turns: [SpeakerTurn]) -> [(segment: TranscriptSegment, voice: Int?)] {
        guard spelledByWords(segment) else {
            return [(segment, voice(segment.startSeconds, segment.endSeconds, turns: turns))]
        }
        var runs: [SpeakerRun] = []
        for word in segment.words {
            let wordVoice = voice(word.startSeconds, word.endSeconds, turns: turns) ?? runs.last?.voice
            if let last = runs.last, last.voice == wordVoice {
                runs[runs.count - 1].words.append(word)
            } else {
                runs.append(SpeakerRun(voice: wordVoice, words: [word]))
            }
        }
        runs = SpeakerRun.withoutBlips(runs)
        guard runs.count > 1 else { return [(segment, runs.first?.voice)] }
        return runs.enumerated().map { index, run in
            var part = segment
            part.words = run.words
            part.text = run.words.map { $0.word.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            part.startSeconds = index == 0 ? segment.startSeconds : run.words[0].startSeconds
            part.endSeconds = index == runs.count - 1 ? segment.endSeconds : max(part.startSeconds, run.words[run.words.count - 1].endSeconds)
            return (part, run.voice)
        }
    }

    /// True when `segment`'s words, split at white space, are its text split at white space (the
    /// test `SubtitleCues` uses before it trusts word times).
    public static func spelledByWords(_ segment: TranscriptSegment) -> Bool {
        let words = segment.words.flatMap { $0.word.split(whereSeparator: \.isWhitespace) }
        return !words.isEmpty && words == segment.text.split(whereSeparator: \.isWhitespace)
    }

    /// `speakers` (of `segments`) with the names of `named`, the speakers of the transcript
    /// `previous`: a new voice takes the name of the earlier speaker it shares most speech time
    /// with (segments overlapping in time), when that is more than half of the shorter one's
    /// time; each name goes to one voice at most, the largest shares first.
    public static func carryingNames(_ speakers: [Speaker], segments: [TranscriptSegment], from previous: [TranscriptSegment],
                                     named: [Speaker]) -> [Speaker] {
        let names = Dictionary(named.compactMap { speaker in speaker.name.map { (speaker.id, $0) } }, uniquingKeysWith: { first, _ in first })
        guard !names.isEmpty else { return speakers }
        func time(_ segments: [TranscriptSegment]) -> [String: Double] {
            segments.reduce(into: [:]) { total, segment in
                if let speaker = segment.speaker { total[speaker, default: 0] += segment.durationSeconds }
            }
        }
        let newTime = time(segments), oldTime = time(previous)
        var shared: [String: [String: Double]] = [:]
        for new in segments {
            guard let newID = new.speaker else { continue }
            for old in previous {
                guard let oldID = old.speaker, names[oldID] != nil else { continue }
                let overlap = min(new.endSeconds, old.endSeconds) - max(new.startSeconds, old.startSeconds)
                if overlap > 0 { shared[newID, default: [:]][oldID, default: 0] += overlap }
            }
        }
        let pairs = shared.flatMap { newID, olds in olds.map { (newID, $0.key, $0.value) } }
            .filter { $0.2 > 0.5 * min(newTime[$0.0] ?? 0, oldTime[$0.1] ?? 0) }
            .sorted { ($1.2, $0.0, $0.1) < ($0.2, $1.0, $1.1) }
        var taken: Set<String> = [], given: [String: String] = [:]
        for (newID, oldID, _) in pairs where given[newID] == nil && !taken.contains(oldID) {
            given[newID] = names[oldID]
            taken.insert(oldID)
        }
        return speakers.map { Speaker(id: $0.id, name: given[$0.id] ?? $0.name) }
    }
}

/// Consecutive words of one segment spoken by one voice.
struct SpeakerRun: Equatable {
    /// The diarizer's label; nil where no voice was found.
    var voice: Int?
    var words: [WordTiming]

    /// Seconds from the first word's start to the last one's end.
    var durationSeconds: Double { max(0, (words.last?.endSeconds ?? 0) - (words.first?.startSeconds ?? 0)) }

    var isBlip: Bool {
        words.count < SpeakerAttribution.shortestRunWords && durationSeconds < SpeakerAttribution.shortestRunSeconds
    }

    /// `runs` with each blip joined to the run before it (the first one's to the run after it),
    /// and runs of the same voice that then meet joined.
    static func withoutBlips(_ runs: [SpeakerRun]) -> [SpeakerRun] {
        guard runs.count > 1 else { return runs }
        var kept: [SpeakerRun] = []
        var leading: [WordTiming] = []
        for run in runs {
            if run.isBlip {
                if kept.isEmpty { leading += run.words } else { kept[kept.count - 1].words += run.words }
                continue
            }
            var run = run
            if !leading.isEmpty {
                run.words = leading + run.words
                leading = []
            }
            if let last = kept.last, last.voice == run.voice {
                kept[kept.count - 1].words += run.words
            } else {
                kept.append(run)
            }
        }
        if kept.isEmpty { return [SpeakerRun(voice: runs[0].voice, words: runs.flatMap(\.words))] }
        return kept
    }
}
