import Foundation

/// How a file's utterances are decoded (`UtteranceRecognizer` without interims): several at a time,
/// over one stretch of the stream, as Whisper decodes a whole file.
///
/// A decode of one utterance on its own hears only its own second or few of audio; Whisper reads a
/// word better in a longer window with the speech around it. Measured on the speech sets of
/// BENCHMARKS.md (five LibriVox sentences, each file one utterance): decoded alone, a sentence in a
/// high voice 40 dB down lost 5 of 71 words where whisper.cpp's decode of the whole file lost 1.
///
/// So utterances cut from a file wait in a pack, and the pack is decoded as one stretch:
/// - a stretch starts at most `leadSeconds` before its first utterance, never before the end of the
///   stretch before it (the stream's start for the first): speech the voice activity detector missed
///   at an utterance's start (whispered speech, a quiet start of a stream) is heard, and no audio is
///   decoded twice;
/// - it ends at the end of its last utterance;
/// - a pack is decoded once the stream has run `spanSeconds` (27) past its stretch's start, so a
///   stretch fits Whisper's 30 s window and the audio waiting stays under
///   `PendingTranscription.readAheadLimitSeconds` (30), and at the end of the stream.
///
/// Each utterance is leveled for decoding on its own (`pieces(of:from:count:)`,
/// `SpeechLevelNormalizer.decodeGain`): a quiet sentence after a loud one is raised as if it were
/// alone. Each word decoded goes to the utterance nearest to it (`assigned(_:to:sampleRate:)`), and
/// each utterance with words becomes one final segment.
public struct UtterancePacking: Sendable, Equatable {
    /// Seconds of stream after a stretch's start at which its pack is decoded.
    public var spanSeconds: Double
    /// Seconds of audio before a pack's first utterance that its stretch includes, at most.
    public var leadSeconds: Double

    public init(spanSeconds: Double = 27, leadSeconds: Double = 2) {
        self.spanSeconds = spanSeconds
        self.leadSeconds = leadSeconds
    }

    /// Each utterance decoded on its own, from its first sample, as soon as it is cut (as live finals are).
    public static let alone = UtterancePacking(spanSeconds: 0, leadSeconds: 0)

    /// The first sample of the stretch for a pack whose first utterance starts at `firstStart`, when
    /// the stretch before it ended at `previousEnd` (0 at the stream's start). Samples from the stream's start.
    public func stretchStart(firstStart: Int, previousEnd: Int, sampleRate: Int) -> Int {
        let lead = Int((leadSeconds * Double(sampleRate)).rounded())
        return min(firstStart, max(previousEnd, firstStart - lead))
    }

    /// True when a pack whose stretch starts at `stretchStart` is to be decoded now: the stream has
    /// reached `streamSamples` samples, `spanSeconds` or more past it.
    public func isDue(stretchStart: Int, streamSamples: Int, sampleRate: Int) -> Bool {
        Double(streamSamples - stretchStart) >= spanSeconds * Double(sampleRate)
    }

    /// `words` (seconds from the stream's start, in order) shared out among `cuts` (in order): a word
    /// goes to the utterance whose span holds its middle, a word between two utterances to the one
    /// whose side of the gap's middle it is on, a word before the first (or after the last) to the
    /// first (or last). One array per cut, in order, each possibly empty.
    public static func assigned(_ words: [WordTiming], to cuts: [UtteranceCut], sampleRate: Int) -> [[WordTiming]] {
        guard !cuts.isEmpty else { return [] }
        // Cut i takes the words whose middle is before the middle of the gap after it.
        let bounds = gapMiddles(cuts).map { Double($0) / Double(sampleRate) }
        var shares = [[WordTiming]](repeating: [], count: cuts.count)
        for word in words {
            let middle = (word.startSeconds + word.endSeconds) / 2
            let index = bounds.firstIndex { middle < $0 } ?? cuts.count - 1
            shares[index].append(word)
        }
        return shares
    }

    /// The part of a stretch each of `cuts` owns, as ranges of indices into the stretch's `count`
    /// samples (the stretch's first sample is the stream's `stretchStart`): from the middle of the gap
    /// before it (the stretch's start for the first) to the middle of the gap after it (the end for the last).
    public static func pieces(of cuts: [UtteranceCut], from stretchStart: Int, count: Int) -> [Range<Int>] {
        let inner = gapMiddles(cuts).map { min(count, max(0, $0 - stretchStart)) }
        let starts = [0] + inner
        let ends = inner + [count]
        return zip(starts, ends).map { $0..<max($0, $1) }
    }

    /// The sample in the middle of each gap between two consecutive cuts (from the stream's start).
    private static func gapMiddles(_ cuts: [UtteranceCut]) -> [Int] {
        zip(cuts, cuts.dropFirst()).map { ($0.endSample + $1.startSample) / 2 }
    }
}
