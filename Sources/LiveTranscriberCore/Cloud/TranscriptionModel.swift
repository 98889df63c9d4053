import Foundation

/// An OpenAI speech-to-text model for `retranscribe --engine openai`.
public enum TranscriptionModel: String, Sendable, Equatable, CaseIterable {
    case whisper1 = "whisper-1"
    case gpt4oTranscribe = "gpt-4o-transcribe"
    case gpt4oMiniTranscribe = "gpt-4o-mini-transcribe"

    /// The `response_format` sent: `verbose_json` (with segment timestamps) for whisper-1, `json`
    /// for the gpt-4o models, which reject `verbose_json`.
    public var responseFormat: String { self == .whisper1 ? "verbose_json" : "json" }

    /// True when the response carries segment times; otherwise the text is laid over local segment times.
    public var returnsSegments: Bool { self == .whisper1 }
}

/// The media type and upload file name of an audio file, from its extension.
public enum AudioContentType {
    /// `audio.wav` -> `audio/wav`, `.flac` -> `audio/flac`, `.ogg` and `.opus` -> `audio/ogg`,
    /// `.mp3` -> `audio/mpeg`, `.m4a`/`.mp4` -> `audio/mp4`, `.webm` -> `audio/webm`; nil otherwise.
    public static func mediaType(forFileName name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        case "ogg", "opus", "oga": return "audio/ogg"
        case "mp3", "mpga", "mpeg": return "audio/mpeg"
        case "m4a", "mp4": return "audio/mp4"
        case "webm": return "audio/webm"
        default: return nil
        }
    }
}
