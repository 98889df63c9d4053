import Foundation

/// When to re-decode the open utterance for interim text, and how many tokens a decode may produce.
///
/// Whisper-class engines are not streaming: interim text comes from decoding the utterance so far
/// again. To keep up on one core: no interim decode before the utterance has `minimumUtteranceSeconds`
/// of audio, at most one every `intervalSeconds` of wall time, never while another decode runs (a due
/// interim decode is dropped, not queued), never while a final waits. An interim decode is capped at
/// `tokensPerSecond` tokens per second of audio, so one that loops on itself stops soon; a final is
/// capped only generously (`finalTokensPerSecond`: fast speech runs to 8 or 9 tokens a second, and a
/// tight cap cut the end off finals), `RepetitionGuard` and temperature fallback dealing with loops.
public struct PartialDecodeSchedule: Sendable, Equatable {
    /// Seconds of utterance audio before the first interim decode. Measured in the real program
    /// (docs/models.md, "Live latency in the real program"): 1.0 s shows an utterance's first words
    /// 0.15 to 0.3 s sooner than 1.5 s did, for one short decode more per utterance.
    public var minimumUtteranceSeconds: Double = 1.0
    /// Wall-clock seconds between the starts of two interim decodes.
    public var intervalSeconds: Double = 1.0
    /// Tokens allowed per second of audio in an interim decode.
    public var tokensPerSecond: Double = 6
    /// Tokens allowed per second of audio in a final decode.
    public var finalTokensPerSecond: Double = 16
    /// Tokens allowed in a final decode however short its audio.
    public var minimumFinalTokens: Int = 32
    /// Tokens no decode may exceed (half of Whisper's 448-token text context).
    public var maximumTokens: Int = 224
    /// Tokens allowed in any decode however short its audio (a word and its punctuation).
    public var minimumTokens: Int = 8

    /// When the last interim decode started, nil before the first.
    public private(set) var lastStart: Date?

    public init() {}

    /// Whether an interim decode of the open utterance should start now.
    /// - Parameters:
    ///   - utteranceSeconds: seconds of audio in the open utterance, nil when none is open.
    ///   - decodeInFlight: a decode (interim or final) is running.
    ///   - finalsWaiting: finals are waiting to be decoded; they come first.
    public func shouldStartInterim(now: Date, utteranceSeconds: Double?, decodeInFlight: Bool, finalsWaiting: Bool) -> Bool {
        guard let utteranceSeconds, utteranceSeconds >= minimumUtteranceSeconds else { return false }
        guard !decodeInFlight, !finalsWaiting else { return false }
        guard let lastStart else { return true }
        return now.timeIntervalSince(lastStart) >= intervalSeconds
    }

    /// Records that an interim decode started at `now`.
    public mutating func interimStarted(at now: Date) {
        lastStart = now
    }

    /// Forgets the last start (a new utterance begins): its first interim waits only for `minimumUtteranceSeconds`.
    public mutating func utteranceEnded() {
        lastStart = nil
    }

    /// The most tokens a decode of `audioSeconds` seconds may produce: `tokensPerSecond` (at least
    /// `minimumTokens`) for an interim decode, `finalTokensPerSecond` (at least `minimumFinalTokens`)
    /// for a final one, never more than `maximumTokens`.
    public func tokenLimit(audioSeconds: Double, interim: Bool = true) -> Int {
        let limit = interim ? max(minimumTokens, Int((audioSeconds * tokensPerSecond).rounded(.up)))
            : max(minimumFinalTokens, Int((audioSeconds * finalTokensPerSecond).rounded(.up)))
        return min(maximumTokens, limit)
    }
}
