import Foundation

/// Turns a recording and its transcript into the text of an export file. Pure: no files, no clock.
///
/// Every format first runs the segments through `SegmentSanitizer`, so cues are ordered, never
/// overlap and never have empty text. Subtitle cues are split to be readable (`SubtitleCues`, with
/// the limits of `subtitleLayout`) and numbered from 1 without gaps; cue text never contains `-->`
/// (written `->`) or a blank line (the line breaks of a segment that fits one cue are kept, empty
/// lines removed). WebVTT escapes `&`, `<` and `>`. Any script, emoji and right-to-left text pass through
/// unchanged.
///
/// ```swift
/// let srt = TranscriptExporter().export(recording: recording, segments: segments, format: .srt)
/// try srt.write(to: url, atomically: true, encoding: .utf8)
/// ```
public struct TranscriptExporter: Sendable {
    /// The limits subtitle cues are split to (SRT and WebVTT only).
    public var subtitleLayout: SubtitleLayout
    /// The zone of the Markdown export's date, the one `list` and `show` use (the user's).
    public var timeZone: TimeZone

    /// - Parameters:
    ///   - subtitleLayout: Characters per line, lines and seconds per cue; the broadcasters' by default.
    ///   - timeZone: The zone the Markdown date is written in, with its offset (`+01:00`; `Z` for UTC).
    public init(subtitleLayout: SubtitleLayout = .broadcast, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.subtitleLayout = subtitleLayout
        self.timeZone = timeZone
    }

    /// The export of `recording` with `segments` in `format`, as UTF-8 text ending with a newline.
    ///
    /// - Parameters:
    ///   - recording: Name, date, duration, language, tags and summary (used by txt, md and json).
    ///   - segments: The transcript, in any order; sanitized first.
    ///   - format: The file format.
    /// - Returns: The file's text. Line endings are `\n`.
    /// - Complexity: O(n log n) in segments.
    public func export(recording: Recording, segments: [TranscriptSegment], format: ExportFormat) -> String {
        let segments = SegmentSanitizer.sanitize(segments)
        switch format {
        case .txt: return plainText(recording, segments)
        case .md: return markdown(recording, segments)
        case .srt: return subRip(segments, audioEndSeconds: recording.durationSeconds, recordingLanguage: recording.language,
                                 names: { recording.speaker($0).displayName })
        case .vtt: return webVTT(segments, audioEndSeconds: recording.durationSeconds, names: { recording.speaker($0).displayName })
        case .json: return json(recording, segments)
        }
    }

    /// SubRip (`.srt`) or WebVTT (`.vtt`) subtitles of `segments` alone (sanitized first), for a
    /// transcript that is no saved recording; nil for the formats that need a recording.
    /// `audioEndSeconds`: the audio's length in seconds, when known; no cue lasts past it.
    public func subtitles(_ segments: [TranscriptSegment], format: ExportFormat, audioEndSeconds: Double? = nil) -> String? {
        switch format {
        case .srt: return subRip(SegmentSanitizer.sanitize(segments), audioEndSeconds: audioEndSeconds)
        case .vtt: return webVTT(SegmentSanitizer.sanitize(segments), audioEndSeconds: audioEndSeconds)
        case .txt, .md, .json: return nil
        }
    }

    // MARK: - Formats

    func plainText(_ recording: Recording, _ segments: [TranscriptSegment]) -> String {
        var text = recording.name + "\n\n"
        for (segment, label) in zip(segments, SegmentLabel.labels(segments, of: recording)) {
            text += "[\(SubtitleTimestamp.clock(segment.startSeconds))] \(label.prefix(escape: singleLine))\(singleLine(segment.text))\n"
        }
        return text
    }

    func markdown(_ recording: Recording, _ segments: [TranscriptSegment]) -> String {
        var text = "# \(markdownEscaped(singleLine(recording.name)))\n\n"
        text += "- Date: \(Self.isoDate(recording.createdAt, timeZone: timeZone))\n"
        text += "- Duration: \(SubtitleTimestamp.clock(recording.durationSeconds))\n"
        text += "- Language: \(markdownEscaped(recording.language))\n"
        if !recording.tags.isEmpty {
            text += "- Tags: \(recording.tags.map { markdownEscaped(singleLine($0)) }.joined(separator: ", "))\n"
        }
        if let summary = recording.summary?.trimmingCharacters(in: .whitespacesAndNewlines), !summary.isEmpty {
            text += "\n## Summary\n\n\(markdownEscaped(singleLine(summary)))\n"
        }
        text += "\n## Transcript\n"
        for (segment, label) in zip(segments, SegmentLabel.labels(segments, of: recording)) {
            let prefix = label.prefix { markdownEscaped(singleLine($0)) }
            text += "\n**\(SubtitleTimestamp.clock(segment.startSeconds))** \(prefix)\(markdownEscaped(singleLine(segment.text)))\n"
        }
        return text
    }

    /// SubRip: the first cue of each speaker's turn starts "Name: ", and the first cue where the
    /// language changes "(de) " as the text export does (`SegmentLanguages.changes`; SRT has no
    /// voice or language markup).
    /// - Parameter names: a speaker id's name (`Speaker.displayName`).
    func subRip(_ segments: [TranscriptSegment], audioEndSeconds: Double?, recordingLanguage: String = "",
                names: (String) -> String = { Speaker(id: $0).displayName }) -> String {
        var text = ""
        var speaking: String?
        var language = recordingLanguage
        for (index, cue) in SubtitleCues.cues(segments, layout: subtitleLayout, audioEndSeconds: audioEndSeconds).enumerated() {
            if index > 0 { text += "\n" }
            text += "\(index + 1)\n"
            text += "\(SubtitleTimestamp.srt(cue.startSeconds)) --> \(SubtitleTimestamp.srt(cue.endSeconds))\n"
            let turn = cue.speaker != nil && cue.speaker != speaking
            speaking = cue.speaker
            let cueLanguage = cue.language ?? recordingLanguage
            let changed = !LanguageTag.sameLanguage(cueLanguage, language)
            language = cueLanguage
            let label = SegmentLabel(speaker: turn ? names(cue.speaker!) : nil, language: changed ? cueLanguage : nil)
            text += label.prefix(escape: safeName) + cue.lines.joined(separator: "\n") + "\n"
        }
        return text
    }

    /// WebVTT: every cue of a labelled speaker is a voice span, `<v Name>` (WebVTT, "cue text:
    /// voice"), which players show and scripts read; a cue in a language other than the
    /// recording's is a language span, `<lang de>…</lang>`.
    /// - Parameter names: a speaker id's name (`Speaker.displayName`).
    func webVTT(_ segments: [TranscriptSegment], audioEndSeconds: Double?,
                names: (String) -> String = { Speaker(id: $0).displayName }) -> String {
        var text = "WEBVTT\n"
        for (index, cue) in SubtitleCues.cues(segments, layout: subtitleLayout, audioEndSeconds: audioEndSeconds).enumerated() {
            text += "\n\(index + 1)\n"
            text += "\(SubtitleTimestamp.vtt(cue.startSeconds)) --> \(SubtitleTimestamp.vtt(cue.endSeconds))\n"
            let voice = cue.speaker.map { "<v \(vttEscaped(safeName(names($0))))>" } ?? ""
            let words = vttEscaped(cue.lines.joined(separator: "\n"))
            text += voice + (cue.language.map { "<lang \(Self.vttAnnotation($0))>\(words)</lang>" } ?? words) + "\n"
        }
        return text
    }

    /// A language tag as a WebVTT span annotation: letters, digits and hyphens only.
    static func vttAnnotation(_ tag: String) -> String {
        String(tag.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }.map(Character.init))
    }

    /// A speaker's name on one line, with no `-->`: safe in a cue.
    func safeName(_ name: String) -> String {
        singleLine(name).replacingOccurrences(of: "-->", with: "->")
    }

    func json(_ recording: Recording, _ segments: [TranscriptSegment]) -> String {
        var recording = recording
        if !recording.durationSeconds.isFinite || recording.durationSeconds < 0 { recording.durationSeconds = 0 }
        let document = RecordingWithTranscript(recording: recording, segments: segments)
        // Sanitized times are finite, so encoding cannot fail; an empty object is the defensive fallback.
        guard let data = try? JSONEncoder.liveTranscriber.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: - Text rules

    /// The text on one line: line breaks become single spaces.
    func singleLine(_ text: String) -> String {
        normalizedLines(text).joined(separator: " ")
    }

    private func normalizedLines(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    func vttEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Backslash-escapes the ASCII characters Markdown reads as markup.
    func markdownEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if "\\`*_[]<>#|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// ISO 8601 with the zone's offset at that date: "2023-11-14T23:13:20+01:00", "…Z" in UTC.
    static func isoDate(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
