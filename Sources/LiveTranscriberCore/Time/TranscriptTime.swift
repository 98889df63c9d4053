import Foundation

/// The one precision of a time in a transcript: whole milliseconds.
///
/// Engines build word and segment times by adding seconds (an utterance's offset in the recording
/// plus whisper.cpp's centisecond timestamps, pocketsphinx's 10 ms frames), and a sum of binary
/// fractions is rarely the decimal it stands for: 4.494 + 0.01 is 4.5040000000000004, which every
/// JSON output printed. `TranscriptSegment` and `WordTiming` hold their times rounded here, from
/// the moment they are made or read, so every output built from them (the JSON of `export`,
/// `show`, `record`, `serve`'s API, the event stream, subtitles, search places) prints 4.504.
/// A millisecond is finer than any engine's timing (10 ms), so nothing an engine measured is lost;
/// the audio and a recording's duration are not rounded. See docs/text-and-names.md.
public enum TranscriptTime {
    /// `seconds` rounded to whole milliseconds (half away from zero, as subtitle timestamps and
    /// every displayed time round): the double nearest to a decimal with at most three digits
    /// after the point, so it prints as that decimal.
    ///
    /// NaN and infinities come back unchanged, as do magnitudes too large to hold a fraction of a
    /// millisecond (from 2^52 ms, about 143,000 years); -0.0004 is 0, never -0.
    /// - Parameter seconds: a time in seconds.
    /// - Returns: seconds, a whole number of milliseconds.
    public static func rounded(_ seconds: Double) -> Double {
        guard seconds.isFinite, abs(seconds) < 4_503_599_627_370.496 else { return seconds }
        let milliseconds = (seconds * 1000).rounded(.toNearestOrAwayFromZero)
        return milliseconds == 0 ? 0 : milliseconds / 1000
    }
}
