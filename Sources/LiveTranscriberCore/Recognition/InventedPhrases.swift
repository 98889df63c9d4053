import Foundation

/// Whisper's best-known invented phrases: text it writes for silence, noise, music or speech it
/// cannot read, learned from the closing credits of the subtitled videos it was trained on
/// ("Thank you for watching.", "Subtitles by the Amara.org community"). Reported across
/// whisper.cpp, openai/whisper and the apps built on them; the list holds the ones seen most.
///
/// A segment whose whole text is one of them is dropped when Whisper itself was unsure of it
/// (`isInvented`); said clearly, the same words are kept ("Thank you." in a conversation).
public enum InventedPhrases {
    /// The phrases, compared by `key` (lowercased, letters and digits only, single spaces).
    public static let phrases: [String] = [
        "thank you for watching", "thanks for watching", "thank you so much for watching",
        "thank you for watching and see you next time", "thank you very much for watching",
        "please subscribe", "please subscribe to my channel", "like and subscribe",
        "dont forget to like and subscribe", "subscribe to the channel",
        "subtitles by the amara org community", "subtitles by", "subtitled by",
        "transcription by castingwords", "translated by", "captions by",
        "see you next time", "see you in the next video", "bye bye",
        "untertitel im auftrag des zdf", "untertitel der amara org community", "untertitelung des zdf 2020",
        "vielen dank fürs zuschauen", "sous titres réalisés para la communauté damara org",
        "sous titrage st 501", "merci davoir regardé", "gracias por ver", "subtítulos realizados por la comunidad de amara org",
    ]

    /// The mean log-probability per token under which a phrase of the list counts as unsure: -0.5
    /// (Whisper's own no-speech rule uses -1 for any text).
    public static let unsureLogProbability: Float = -0.5
    /// The no-speech probability above which a phrase of the list counts as unsure: 0.2.
    public static let unsureNoSpeechProbability: Float = 0.2

    private static let keys = Set(phrases.map(key))

    /// True when `text`, the whole text of one decoded segment, is an invented phrase to drop: one
    /// of `phrases`, decoded with a mean log-probability per token below `unsureLogProbability` or
    /// a no-speech probability above `unsureNoSpeechProbability`.
    public static func isInvented(_ text: String, meanLogProbability: Float, noSpeechProbability: Float) -> Bool {
        guard isListed(text) else { return false }
        return meanLogProbability < unsureLogProbability || noSpeechProbability > unsureNoSpeechProbability
    }

    /// True when `text` is one of `phrases`, whatever its case, punctuation and spacing.
    public static func isListed(_ text: String) -> Bool {
        keys.contains(key(text))
    }

    /// The sentence kept in the recording's notes (`Recording.notes`) for a phrase dropped at
    /// `startSeconds` (from the start of the recording): "Dropped “Thank you for watching.” at
    /// 0:12: a phrase Whisper is known to invent, decoded with little confidence."
    public static func note(_ text: String, startSeconds: Double) -> String {
        "Dropped “\(text)” at \(ElapsedTimeFormat.clock(startSeconds)): a phrase Whisper is known to invent, decoded with little confidence."
    }

    /// "Thank you for watching!" → "thank you for watching"; "Amara.org" → "amara org".
    static func key(_ text: String) -> String {
        let folded = text.lowercased().replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "’", with: "")
        return folded.split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
    }
}

/// A segment a decoder dropped as an invented phrase (`InventedPhrases.isInvented`), for the
/// recording's notes.
public struct DroppedPhrase: Sendable, Equatable {
    /// The segment's whole text, as decoded.
    public var text: String
    /// Where it was heard: seconds from the first sample of the decode (the decoder's) or from
    /// the start of the stream (the recognizer's).
    public var startSeconds: Double

    public init(text: String, startSeconds: Double) {
        self.text = text
        self.startSeconds = startSeconds
    }
}
