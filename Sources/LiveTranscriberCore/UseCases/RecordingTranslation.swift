import Foundation

/// Making the English translation of a saved recording and keeping it next to its transcript
/// (`retranscribe ID --translate`, `import --translate`, the web page's Translate button). The
/// transcript itself is never replaced: a translation is asked for, never made silently.
///
/// ```swift
/// let segments = try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { audio in
///     try LocalFileTranscriber(engine: .whisper, translate: true).transcript(of: audio, …).segments
/// }
/// ```
public enum RecordingTranslation {
    /// The language of every translation: Whisper's translate task gives English only.
    public static let language = "en"

    /// Translates `recording`'s audio with `translate` (given its file) and keeps the result as
    /// its translation (`RecordingStore.saveTranslation`), replacing one kept before.
    /// - Parameter reads: the formats this platform's audio library reads.
    /// - Returns: the translation's segments as kept, in start order, without segment languages.
    /// - Throws: `AudioFileError.unsupportedFormat` when the audio's format cannot be read here;
    ///   `MissingAudioFile` when the audio file is gone; what `translate` throws (nothing is
    ///   saved); the store's errors.
    @discardableResult
    public static func run(_ recording: Recording, in store: some RecordingStore, reads: AudioFormatSupport,
                           translate: (URL) throws -> [TranscriptSegment]) throws -> [TranscriptSegment] {
        try reads.checkReadable(recording.audio.format)
        let audio = try store.existingAudioFile(of: recording)
        // All English: the language each stretch was spoken in is the transcript's to say.
        let segments = try translate(audio).map { segment in
            var english = segment
            english.language = nil
            return english
        }.sorted { $0.startSeconds < $1.startSeconds }
        try store.saveTranslation(of: recording.id, segments, language: language)
        return segments
    }

    /// "'Talk' (ID) has no translation; make one with 'livetranscriber retranscribe ID --translate'".
    public static func missing(_ recording: Recording) -> String {
        "'\(VisibleText.escaped(recording.name))' (\(recording.id)) has no translation; "
            + "make one with 'livetranscriber retranscribe \(recording.id) --translate'"
    }
}
