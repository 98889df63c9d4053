import Foundation

/// Words a decoder gives for audio that is not there. whisper.cpp decodes at least a second, so a
/// shorter utterance is padded with silence, and a decoder that has run out of audio can go on
/// writing words past its end.
///
/// Words stamped at the very end are kept: whisper.cpp gives its token times in 10 ms steps and,
/// when its alignment fails on speech that runs to the end of the audio, stamps real words there,
/// zero-length (espeak-ng's Greek sentence: "για την επόμενη εβδομάδα", its last four words, all at
/// the utterance's last step). A loop stamped there is cut by `RepetitionGuard` instead.
public enum DecodedWords {
    /// `words` without those that start after `audioSeconds` (no audio is left for them), the
    /// others' ends kept within the audio. Times are seconds from the decode's first sample;
    /// `audioSeconds` is the audio decoded (before any padding).
    public static func withinAudio(_ words: [WordTiming], audioSeconds: Double) -> [WordTiming] {
        words.compactMap { word in
            guard word.startSeconds <= audioSeconds else { return nil }
            return WordTiming(word: word.word, startSeconds: word.startSeconds, endSeconds: min(word.endSeconds, audioSeconds))
        }
    }
}
