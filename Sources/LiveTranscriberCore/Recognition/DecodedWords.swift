import Foundation

/// Words a decoder gives for audio that is not there. A decoder that runs out of audio can go on
/// writing: whisper.cpp stamps such words at or past the end of what it was given, zero-length (a
/// looped phrase repeated three times over at the last sample of an import, and words in the
/// silence a short decode is padded with).
public enum DecodedWords {
    /// `words` without those that start at or after `audioSeconds` (no audio is left for them), the
    /// others' ends kept within it. Times are seconds from the decode's first sample; `audioSeconds`
    /// is the audio decoded (before any padding), > 0.
    public static func withinAudio(_ words: [WordTiming], audioSeconds: Double) -> [WordTiming] {
        words.compactMap { word in
            guard word.startSeconds < audioSeconds else { return nil }
            return WordTiming(word: word.word, startSeconds: word.startSeconds, endSeconds: min(word.endSeconds, audioSeconds))
        }
    }
}
