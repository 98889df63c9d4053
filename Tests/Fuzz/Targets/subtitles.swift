import Foundation
@testable import LiveTranscriberCore

/// The exporters on segments with any text and times (NaN, infinities, 1e308, overlaps, words
/// that do not spell the text): never a trap; SRT and WebVTT cues are ordered, never overlap,
/// and keep every word of the sanitized transcript once, in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let layout = SubtitleLayout(maximumLineCharacters: 1 + Int(input.byte() % 80), maximumLines: 1 + Int(input.byte() % 3),
                                maximumCueSeconds: 0.5 + Double(input.byte() % 20))
    var segments: [TranscriptSegment] = []
    while !input.isAtEnd, segments.count < 64 {
        var segment = TranscriptSegment(text: input.text(), startSeconds: input.seconds(), endSeconds: input.seconds())
        for _ in 0..<Int(input.byte() % 16) where !input.isAtEnd {
            segment.words.append(WordTiming(word: input.text(), startSeconds: input.seconds(), endSeconds: input.seconds()))
        }
        segments.append(segment)
    }
    let exporter = TranscriptExporter(subtitleLayout: layout)
    let recording = Recording(id: "20260101-000000-abcd", name: "fuzz", createdAt: Date(timeIntervalSince1970: 0),
                              durationSeconds: segments.last?.endSeconds ?? 0, language: "en-US",
                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
    // Markdown adds only a date to txt (a DateFormatter per call, slow); the metadata target has it.
    for format in [ExportFormat.srt, .vtt, .txt, .json] {
        _ = exporter.export(recording: recording, segments: segments, format: format)
    }
    let sanitized = SegmentSanitizer.sanitize(segments)
    let cues = SubtitleCues.cues(sanitized, layout: layout)
    var previousEnd = -Double.infinity
    for cue in cues {
        fuzzCheck(cue.startSeconds.isFinite && cue.endSeconds.isFinite, "a cue time that is not finite: \(cue)")
        fuzzCheck(previousEnd <= cue.startSeconds && cue.startSeconds <= cue.endSeconds, "cues out of order or overlapping: \(cue) after end \(previousEnd)")
        fuzzCheck(!cue.lines.isEmpty && cue.lines.allSatisfy { !$0.isEmpty && !$0.contains("-->") && !$0.contains(where: \.isNewline) },
                  "a cue line that is empty, holds an arrow or a line break: \(cue.lines)")
        previousEnd = cue.endSeconds
    }
    let words = sanitized.flatMap { SubtitleCues.safe($0.text).split(whereSeparator: { $0.isWhitespace }).map(String.init) }
    let shown = cues.flatMap { $0.lines.flatMap { $0.split(whereSeparator: { $0.isWhitespace }).map(String.init) } }
    fuzzCheck(shown == words, "cue words \(shown) are not the transcript's \(words)")
    return 0
}
