import Foundation

/// Thresholds and durations for cutting utterances from voice activity detection (VAD) probabilities.
public struct VoiceActivitySettings: Sendable, Equatable {
    /// A window with a speech probability at or above this starts an utterance.
    public var startThreshold: Float = 0.5
    /// Once in an utterance, windows at or above this still count as speech (hysteresis).
    public var continueThreshold: Float = 0.35
    /// Seconds of speech (windows at or above `startThreshold`) an utterance needs to be kept; shorter ones are noise.
    public var minimumSpeechSeconds: Double = 0.25
    /// Seconds below `continueThreshold` that end a short utterance (endpointing). A longer one ends
    /// after a shorter pause (`requiredSilenceSeconds(utteranceSeconds:)`).
    public var endSilenceSeconds: Double = 0.5
    /// The shortest pause that ends an utterance: what a long one needs. Fluent readers pause about
    /// 0.3 s between sentences, of which Silero VAD hears 0.2 to 0.25 s as silence.
    public var shortestEndSilenceSeconds: Double = 0.2
    /// Speech length (seconds, from the start of the stretch of speech to its last speech) up to which
    /// the pause needed is `endSilenceSeconds`: short answers and words said alone keep the long pause.
    /// A stretch goes on through splits and forced cuts: the utterance after one is as far into the
    /// speaker's flow as the one before it was.
    public var endSilenceShrinkFromSeconds: Double = 1.5
    /// Speech length (seconds) from which the pause needed is `shortestEndSilenceSeconds`; in between it shrinks linearly.
    public var endSilenceShrinkToSeconds: Double = 4.5
    /// Seconds of audio kept before the first speech window.
    public var paddingSeconds: Double = 0.2
    /// Seconds of audio kept after the last speech window. Shorter than `paddingSeconds`: the final
    /// decode can start only once this much silence has passed (the live delay to a final), and 0.1 s
    /// kept the LibriVox word error rate at 1/71 (0.1 s on both sides cost 2 more words).
    public var endPaddingSeconds: Double = 0.1
    /// No utterance is longer than this many seconds: past it, the utterance is cut at its quietest point.
    public var maximumUtteranceSeconds: Double = 15
    /// The forced cut looks for the quietest window in this many last seconds before the limit.
    public var cutSearchSeconds: Double = 5

    public init() {}

    /// Seconds of silence that end an utterance of `utteranceSeconds` (from its start to the end of its
    /// last speech window): `endSilenceSeconds` up to `endSilenceShrinkFromSeconds`, then shrinking
    /// linearly to `shortestEndSilenceSeconds` at `endSilenceShrinkToSeconds` and beyond.
    public func requiredSilenceSeconds(utteranceSeconds: Double) -> Double {
        let span = endSilenceShrinkToSeconds - endSilenceShrinkFromSeconds
        guard span > 0 else { return utteranceSeconds >= endSilenceShrinkToSeconds ? shortestEndSilenceSeconds : endSilenceSeconds }
        let progress = min(1, max(0, (utteranceSeconds - endSilenceShrinkFromSeconds) / span))
        return endSilenceSeconds - (endSilenceSeconds - shortestEndSilenceSeconds) * progress
    }
}

/// An utterance cut from the stream, as sample indices from the start of the stream.
public struct UtteranceCut: Sendable, Equatable {
    /// First sample of the utterance (padding included).
    public var startSample: Int
    /// One past the last sample.
    public var endSample: Int
    /// True when the utterance was cut at its quietest point because it reached the maximum length.
    public var forced: Bool

    public init(startSample: Int, endSample: Int, forced: Bool) {
        self.startSample = startSample
        self.endSample = endSample
        self.forced = forced
    }
}

/// Cuts a stream into utterances from one speech probability per fixed window of samples
/// (Silero VAD gives one per 512 samples at 16 kHz).
///
/// An utterance starts at a window at or above `startThreshold`, goes on while windows stay at or
/// above `continueThreshold`, and ends after a pause below it: `endSilenceSeconds` for a short
/// utterance, shrinking to `shortestEndSilenceSeconds` as it, with the utterances split or cut from
/// the same stretch of speech before it, grows
/// (`VoiceActivitySettings.requiredSilenceSeconds(utteranceSeconds:)`); it keeps `paddingSeconds`
/// of audio before its first speech window and `endPaddingSeconds` after its last. Utterances with less than
/// `minimumSpeechSeconds` of speech are dropped. When an utterance reaches
/// `maximumUtteranceSeconds`, it is cut in the middle of its quietest window among the last
/// `cutSearchSeconds`, and the rest goes on as a new utterance, so no cut is longer than the maximum.
public struct VoiceActivitySegmenter: Sendable {
    public let windowSamples: Int
    public let sampleRate: Int
    public let settings: VoiceActivitySettings

    /// Windows seen so far.
    public private(set) var windowCount = 0
    /// First sample of the open utterance (padding included), nil between utterances.
    public private(set) var openStartSample: Int?
    /// Probabilities of the open utterance's windows, from `openFirstWindow` on.
    private var openProbabilities: [Float] = []
    private var openFirstWindow = 0
    private var lastSpeechWindow = 0
    private var speechWindows = 0
    /// Where the stretch of speech the open utterance belongs to began: its own start, or the start
    /// of the utterance it was split or force-cut from.
    private var runStartSample = 0
    /// End of the last cut: the next utterance's padding never reaches back before it.
    private var lastCutEnd = 0

    public init(windowSamples: Int, sampleRate: Int, settings: VoiceActivitySettings = VoiceActivitySettings()) {
        precondition(windowSamples > 0 && sampleRate > 0, "a segmenter needs a positive window and rate")
        self.windowSamples = windowSamples
        self.sampleRate = sampleRate
        self.settings = settings
    }

    private func samples(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }

    /// Samples seen so far.
    public var sampleCount: Int { windowCount * windowSamples }

    /// The cut the open utterance will get if no more speech comes, once every sample of it has been
    /// seen: the silence after its last speech window already covers the end padding, and the utterance
    /// holds enough speech to be kept. Nil between utterances, while speech goes on, and during the
    /// end padding. The utterance is not cut until `endSilenceSeconds` of silence, so speech may still
    /// resume; a decode of this cut started now gives the final early (endpointing look-ahead).
    public var pendingCut: UtteranceCut? {
        guard let start = openStartSample, enoughSpeech else { return nil }
        let end = silenceEndSample(start: start)
        guard sampleCount >= end, end > start else { return nil }
        return UtteranceCut(startSample: start, endSample: end, forced: false)
    }

    /// Where the open utterance ends when silence ends it: the end padding after its last speech window, within the maximum length.
    private func silenceEndSample(start: Int) -> Int {
        min(start + samples(settings.maximumUtteranceSeconds), (lastSpeechWindow + 1) * windowSamples + samples(settings.endPaddingSeconds))
    }

    /// Samples of silence that end the open utterance, from its length so far (`requiredSilenceSeconds`).
    private func requiredSilenceSamples() -> Int {
        let spoken = Double((lastSpeechWindow + 1) * windowSamples - runStartSample) / Double(sampleRate)
        return samples(settings.requiredSilenceSeconds(utteranceSeconds: spoken))
    }

    private var enoughSpeech: Bool {
        Double(speechWindows * windowSamples) >= settings.minimumSpeechSeconds * Double(sampleRate)
    }

    /// Takes the probability of the next window and returns the utterances it ends (zero or one).
    public mutating func add(probability: Float) -> [UtteranceCut] {
        let window = windowCount
        windowCount += 1
        guard let start = openStartSample else {
            if probability >= settings.startThreshold {
                openStartSample = max(lastCutEnd, window * windowSamples - samples(settings.paddingSeconds))
                runStartSample = openStartSample ?? 0
                openFirstWindow = window
                openProbabilities = [probability]
                lastSpeechWindow = window
                speechWindows = 1
            }
            return []
        }
        openProbabilities.append(probability)
        if probability >= settings.continueThreshold { lastSpeechWindow = window }
        if probability >= settings.startThreshold { speechWindows += 1 }

        let end = (window + 1) * windowSamples
        if (window - lastSpeechWindow) * windowSamples >= requiredSilenceSamples() {
            return close(endSample: silenceEndSample(start: start))
        }
        if end - start >= samples(settings.maximumUtteranceSeconds) {
            return [forcedCut(start: start, end: end)]
        }
        return []
    }

    /// Ends the stream: the open utterance, if it holds enough speech, is cut at the last sample seen.
    public mutating func finish() -> [UtteranceCut] {
        guard let start = openStartSample else { return [] }
        return close(endSample: min(sampleCount, silenceEndSample(start: start)))
    }

    private mutating func close(endSample: Int) -> [UtteranceCut] {
        guard let start = openStartSample else { return [] }
        openStartSample = nil
        openProbabilities = []
        guard enoughSpeech, endSample > start else { return [] }
        lastCutEnd = endSample
        return [UtteranceCut(startSample: start, endSample: endSample, forced: false)]
    }

    /// Cuts the open utterance early, where the recognizer found a sentence end followed by more
    /// speech (`UtteranceRecognizer`'s agreement rule): in the middle of the quietest window whose
    /// middle lies between samples `from` and `to` (the end of the sentence's last word and the start
    /// of the next, from the stream's start), or at their midpoint when no window's middle does. The
    /// rest goes on as a new open utterance starting at the cut, already in speech.
    /// - Returns: the cut, nil when no utterance is open or the cut would not fall inside it (after its
    ///   start, before the last sample seen).
    public mutating func split(from: Int, to: Int) -> UtteranceCut? {
        guard let start = openStartSample else { return nil }
        let low = min(from, to), high = max(from, to)
        var cut = (low + high) / 2
        var quietest: Int?
        let firstWindow = max(openFirstWindow, (low - windowSamples / 2) / windowSamples)
        for window in firstWindow..<max(firstWindow, windowCount) {
            let middle = window * windowSamples + windowSamples / 2
            guard middle >= low else { continue }
            guard middle <= high else { break }
            if quietest.map({ openProbabilities[window - openFirstWindow] < openProbabilities[$0 - openFirstWindow] }) ?? true {
                quietest = window
            }
        }
        if let quietest { cut = quietest * windowSamples + windowSamples / 2 }
        guard cut > start, cut < sampleCount else { return nil }
        reopen(atWindow: max(openFirstWindow, cut / windowSamples), sample: cut)
        return UtteranceCut(startSample: start, endSample: cut, forced: false)
    }

    private mutating func forcedCut(start: Int, end: Int) -> UtteranceCut {
        let searchFrom = max(openFirstWindow + 1,
                             (end - samples(settings.cutSearchSeconds)) / windowSamples)
        var quietest = windowCount - 1
        for window in searchFrom..<windowCount where openProbabilities[window - openFirstWindow] < openProbabilities[quietest - openFirstWindow] {
            quietest = window
        }
        let cut = quietest * windowSamples + windowSamples / 2
        // The rest is a new utterance that starts at the cut, already in speech.
        reopen(atWindow: quietest, sample: cut)
        return UtteranceCut(startSample: start, endSample: cut, forced: true)
    }

    /// After a cut at `sample`: the open utterance now starts there, its probabilities kept from
    /// window `window` on, its speech windows counted again.
    private mutating func reopen(atWindow window: Int, sample: Int) {
        openProbabilities.removeFirst(window - openFirstWindow)
        openFirstWindow = window
        openStartSample = sample
        lastCutEnd = sample
        speechWindows = openProbabilities.filter { $0 >= settings.startThreshold }.count
    }
}
