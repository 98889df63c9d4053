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

    /// `words` (seconds from the stream's start, in order) shared out among `cuts` (in order) by their
    /// starts: a word goes to the utterance whose span holds its start, a word starting between two
    /// utterances to the one whose side of the gap's middle it is on, a word before the first (or
    /// after the last) to the first (or last). A word's end is kept within its utterance's end
    /// (never before its start): a decoder that times only onsets ends a word where the next begins,
    /// which for an utterance's last word is across the gap. One array per cut, in order, each possibly empty.
    public static func assigned(_ words: [WordTiming], to cuts: [UtteranceCut], sampleRate: Int) -> [[WordTiming]] {
        guard !cuts.isEmpty else { return [] }
        // Cut i takes the words that start before the middle of the gap after it.
        let bounds = gapMiddles(cuts).map { Double($0) / Double(sampleRate) }
        var shares = [[WordTiming]](repeating: [], count: cuts.count)
        for var word in words {
            let index = bounds.firstIndex { word.startSeconds < $0 } ?? cuts.count - 1
            let cutEnd = Double(cuts[index].endSample) / Double(sampleRate)
            word.endSeconds = max(word.startSeconds, min(word.endSeconds, cutEnd))
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

    /// A stretch's `samples` as its decode hears them: each of its `pieces` (`pieces(of:from:count:)`)
    /// raised to the level of the stretch's loudest piece (`SpeechLevelNormalizer.decodeGain` with
    /// that level as its target), the loudest left as recorded. Whisper hears the stretch as
    /// whisper.cpp hears the file, but for a quiet sentence among loud ones. Measured on the speech
    /// sets (BENCHMARKS.md), raising every piece to an ordinary level instead left whispered speech
    /// 30 dB down at 25 words of 71 wrong against the whole-file decode's 19.
    public static func leveled(_ samples: [Float], pieces: [Range<Int>], windowSamples: Int) -> [Float] {
        let loudest = pieces.map { SpeechLevelNormalizer.loudestLevel(samples[$0], windowSamples: windowSamples) }.max() ?? 0
        guard loudest > 0 else { return samples }
        return pieces.flatMap { piece -> [Float] in
            let gain = SpeechLevelNormalizer.decodeGain(Array(samples[piece]), windowSamples: windowSamples, targetRMS: loudest)
            return gain == 1 ? Array(samples[piece]) : samples[piece].map { $0 * gain }
        }
    }

    /// The sample in the middle of each gap between two consecutive cuts (from the stream's start).
    private static func gapMiddles(_ cuts: [UtteranceCut]) -> [Int] {
        zip(cuts, cuts.dropFirst()).map { ($0.endSample + $1.startSample) / 2 }
    }
}
