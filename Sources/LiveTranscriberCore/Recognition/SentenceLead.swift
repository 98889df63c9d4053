/// Live: the first words of a long sentence become final before its end, at an agreed clause end
/// or between agreed words (`LocalAgreement.splitCount`). Decoded alone, the rest of the sentence
/// loses what came before it and Whisper misreads it: measured on the LibriVox sentence "unless to
/// be rather cold hearted and rather selfish is to be ill disposed", split after "rather", its rest
/// came out "selfish is to be all disposed" at every cut tried, and "…ill-disposed" when decoded
/// with the audio before the cut. So the rest's final (and look-ahead) decode starts up to
/// `longestSeconds` earlier, in the part already final (its lead), and keeps only the words after
/// the cut. Interim decodes do not: they stay as cheap as before.
public struct SentenceLead: Sendable, Equatable {
    /// The most audio a final decode hears before its own utterance, in seconds. Measured live on
    /// the joined LibriVox sentences (`livetranscriber-bench simulate`, two runs each): 2.5 s gave
    /// the rest right at 0.45 to 0.47 CPU s per audio s; the whole sentence (up to 8 s) cost 0.53
    /// to 0.54 and about 0.2 s more sentence latency; 4 s once lost a word after the lead's start.
    public static let longestSeconds = 2.5

    /// The first sample of the sentence's audio, from the stream's start.
    public var startSample: Int
    /// Where the rest of the sentence starts: the cut of the last split.
    public var cutSample: Int

    public init(startSample: Int, cutSample: Int) {
        self.startSample = startSample
        self.cutSample = cutSample
    }

    /// The lead of the utterance that goes on after a split; nil when the split words end a sentence
    /// (the rest starts a new one). It starts at the sentence's start (the split utterance's, or its
    /// own lead's), but at most `longestSeconds` before the cut.
    /// - Parameters:
    ///   - lastWord: the last word split off ("rather", "woman,"; "them." ends a sentence).
    ///   - utteranceStart: the first sample of the utterance that was split.
    ///   - cut: where it was split (the rest starts there).
    ///   - previous: the lead of the utterance that was split, when it too went on with a sentence.
    ///   - sampleRate: samples per second.
    public static func lead(splitting lastWord: String, utteranceStart: Int, cut: Int, previous: SentenceLead?,
                            sampleRate: Int) -> SentenceLead? {
        guard !LocalAgreement.endsSentence(lastWord) else { return nil }
        let sentenceStart = previous.flatMap { $0.cutSample == utteranceStart ? $0.startSample : nil } ?? utteranceStart
        let earliest = cut - Int(longestSeconds * Double(sampleRate))
        return SentenceLead(startSample: max(sentenceStart, earliest), cutSample: cut)
    }

    /// The words of a decode that started at the lead's start which belong after the cut: those whose
    /// middle is at or after `cutSeconds` (times in seconds from the stream's start). The cut lies in
    /// the quietest stretch between two words, so a word's middle is on its side of it.
    public static func after(_ words: [WordTiming], cutSeconds: Double) -> [WordTiming] {
        words.filter { ($0.startSeconds + $0.endSeconds) / 2 >= cutSeconds }
    }
}
