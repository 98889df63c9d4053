import Foundation

/// Live: speech just before an utterance that the voice activity detector did not hear.
///
/// The detector hears each window through `SpeechLevelNormalizer`, which never lifts the background
/// (the quietest window of the last seconds) above -70 dBFS. When a recording starts with quiet
/// speech, there is no background yet: the quietest window so far is the speech itself, the gain
/// stays small, and Silero hears the first second or two of whispered speech 30 dB down as silence.
/// Measured on espeak-ng's whispered LibriVox sentences 30 dB down (BENCHMARKS.md, issue 42), the
/// live final of "had he married a more amiable woman, he might…" began at 2.05 s with "but he may
/// still be…" (13 of 19 words wrong, whisper.cpp alone on the file 3), and "he was" was missing from
/// the start of two more sentences.
///
/// So a live final (and its look-ahead) decode starts earlier when the audio just before its
/// utterance is as loud as speech: within `levelBelowLoudestDecibels` of the utterance's loudest
/// window. Walking back window by window from the utterance's start, the lead reaches the earliest
/// loud window with no more than `longestQuietSeconds` of quieter ones between it and the
/// utterance, at most `longestSeconds` back and never into the previous utterance, and the decode
/// hears `silenceBeforeSeconds` of silence before it. The words decoded there are kept: no final
/// holds them. Before ordinary speech the audio is room tone or
/// silence, 20 dB and more below the speech (LibriVox 21 to 35 dB, whisper.cpp's JFK sample 34 dB),
/// so nothing changes there; the import path already hears up to 2 s before each stretch
/// (`UtterancePacking`).
public enum MissedSpeechLead {
    /// The most audio a final decode hears before its utterance for missed speech, in seconds.
    public static let longestSeconds = 2.0
    /// How far below the utterance's loudest window a window before it may be and still count as
    /// speech, in decibels.
    public static let levelBelowLoudestDecibels: Float = 15
    /// The longest run of quieter windows the lead reaches across, in seconds: the gaps between
    /// whispered words.
    public static let longestQuietSeconds = 0.25
    /// Seconds of silence a decode with such a lead hears before it: the lead starts inside speech,
    /// where a cut starts with 0.2 s of audio before its first speech window
    /// (`VoiceActivitySettings.paddingSeconds`). On the whispered sentences 30 dB down, 23 words of
    /// 71 wrong with it, 26 without (BENCHMARKS.md).
    public static let silenceBeforeSeconds = 0.2

    /// How many samples of `before` (the audio just before an utterance, oldest first, already
    /// bounded by the previous utterance and `longestSeconds`) the utterance's decode should start
    /// earlier by: from the start of the earliest loud window found (see the type), 0 for none.
    /// - Parameters:
    ///   - utterance: the utterance's own samples, for its loudest window.
    ///   - windowSamples: the window the levels are measured in (the detector's, 512 at 16 kHz).
    ///   - sampleRate: samples per second.
    public static func samples(before: ArraySlice<Float>, utterance: ArraySlice<Float>, windowSamples: Int, sampleRate: Int) -> Int {
        let window = max(1, windowSamples)
        let loudest = SpeechLevelNormalizer.loudestLevel(utterance, windowSamples: window)
        guard loudest > 0, !before.isEmpty else { return 0 }
        let threshold = loudest * Float(pow(10, Double(-levelBelowLoudestDecibels) / 20))
        let longestQuiet = Int(longestQuietSeconds * Double(sampleRate))
        var lead = 0
        var end = before.endIndex
        while end > before.startIndex {
            let start = max(before.startIndex, end - window)
            if SpeechLevelNormalizer.rms(before[start..<end]) >= threshold {
                lead = before.endIndex - start
            } else if before.endIndex - start - lead > longestQuiet {
                break
            }
            end = start
        }
        return lead
    }
}
