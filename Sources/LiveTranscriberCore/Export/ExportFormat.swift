import Foundation

/// A file format `export` writes.
public enum ExportFormat: String, Sendable, Equatable, CaseIterable, Codable {
    /// Plain text: the name, then one `[HH:MM:SS] text` line per segment.
    case txt
    /// Markdown: a title, the metadata as a list, the summary, then the timestamped transcript.
    case md
    /// SubRip subtitles: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`.
    case srt
    /// WebVTT subtitles: `WEBVTT`, then numbered cues, `HH:MM:SS.mmm --> HH:MM:SS.mmm`.
    case vtt
    /// The recording and its segments, the shape `show --json` prints.
    case json

    /// The file name extension without the dot ("srt").
    public var fileExtension: String { rawValue }

    /// The media type to use when the export is served or attached ("text/vtt").
    public var mediaType: String {
        switch self {
        case .txt: return "text/plain; charset=utf-8"
        case .md: return "text/markdown; charset=utf-8"
        case .srt: return "application/x-subrip; charset=utf-8"
        case .vtt: return "text/vtt; charset=utf-8"
        case .json: return "application/json"
        }
    }
}
