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

    /// The file name an export of `recording` is offered under: the recording's name with every
    /// character other than a letter, digit, space, "-", "_" or "." made "_", spaces around and
    /// dots at the start dropped, at most 80 characters, then "." and the extension; the id when
    /// nothing is left. "Team sync: Q3/Q4" as srt is "Team sync_ Q3_Q4.srt".
    /// - Parameter translation: the language of a translation exported in place of the transcript
    ///   ("en"), put before the extension as video players look for it: "Team sync.en.srt".
    public func fileName(for recording: Recording, translation: String? = nil) -> String {
        var base = String(recording.name.unicodeScalars.map { scalar -> Character in
            let allowed = CharacterSet.alphanumerics.contains(scalar) || " -_.".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "_"
        }).trimmingCharacters(in: .whitespaces)
        while base.hasPrefix(".") { base.removeFirst() }
        base = String(base.prefix(80)).trimmingCharacters(in: .whitespaces)
        return (base.isEmpty ? recording.id : base) + (translation.map { "." + $0 } ?? "") + "." + fileExtension
    }

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
