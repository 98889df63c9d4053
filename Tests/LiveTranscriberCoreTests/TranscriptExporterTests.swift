import Foundation
import LiveTranscriberCore
import Testing

@Suite("Transcript exporter")
struct TranscriptExporterTests {
    let exporter = TranscriptExporter()

    func export(_ format: ExportFormat, _ segments: [TranscriptSegment] = ExportFixtures.segments) -> String {
        exporter.export(recording: ExportFixtures.recording, segments: segments, format: format)
    }

    @Test("SRT: numbered cues, comma milliseconds, no --> or blank line in cue text, scripts unchanged")
    func srt() {
        #expect(export(.srt) == """
            1
            00:00:00,000 --> 00:00:01,500
            Hello & welcome <everyone>

            2
            00:00:01,500 --> 00:00:03,250
            Next -> step -> done

            3
            00:00:03,250 --> 00:00:05,000
            第一行
            你好 🎉

            4
            00:00:05,000 --> 01:00:00,000
            مرحبا بالعالم

            """)
    }

    @Test("WebVTT: header and blank line, dot milliseconds, & < > escaped")
    func vtt() {
        #expect(export(.vtt) == """
            WEBVTT

            1
            00:00:00.000 --> 00:00:01.500
            Hello &amp; welcome &lt;everyone&gt;

            2
            00:00:01.500 --> 00:00:03.250
            Next -&gt; step -&gt; done

            3
            00:00:03.250 --> 00:00:05.000
            第一行
            你好 🎉

            4
            00:00:05.000 --> 01:00:00.000
            مرحبا بالعالم

            """)
    }

    @Test("plain text: name, blank line, one timestamped line per segment")
    func txt() {
        #expect(export(.txt) == """
            Team *sync*

            [00:00:00] Hello & welcome <everyone>
            [00:00:01] Next -> step --> done
            [00:00:03] 第一行 你好 🎉
            [00:00:05] مرحبا بالعالم

            """)
    }

    @Test("Markdown: title, metadata list, summary, transcript; markup characters escaped")
    func markdown() {
        #expect(export(.md) == """
            # Team \\*sync\\*

            - Date: 2023-11-14T22:13:20Z
            - Duration: 01:00:01
            - Language: en-US
            - Tags: work, weekly

            ## Summary

            Plans for the launch.

            ## Transcript

            **00:00:00** Hello & welcome \\<everyone\\>

            **00:00:01** Next -\\> step --\\> done

            **00:00:03** 第一行 你好 🎉

            **00:00:05** مرحبا بالعالم

            """)
    }

    @Test("Markdown: the date in the given zone with its offset, as list and show give it", arguments: [
        ("Europe/Paris", "- Date: 2023-11-14T23:13:20+01:00"),
        ("America/New_York", "- Date: 2023-11-14T17:13:20-05:00"),
        ("UTC", "- Date: 2023-11-14T22:13:20Z"),
    ])
    func markdownTimeZone(zone: String, line: String) throws {
        let exporter = TranscriptExporter(timeZone: try #require(TimeZone(identifier: zone)))
        let text = exporter.export(recording: ExportFixtures.recording, segments: [], format: .md)
        #expect(text.components(separatedBy: "\n")[2] == line)
    }

    @Test("JSON: the show --json shape, decodable back to the same recording and sanitized segments")
    func json() throws {
        let text = export(.json)
        let decoded = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(text.utf8))
        #expect(decoded.recording == ExportFixtures.recording)
        #expect(decoded.segments == SegmentSanitizer.sanitize(ExportFixtures.segments))
        #expect(text.contains("\"duration\" : 3601.25"))
        #expect(text.contains("\"text\" : \"第一行\\n\\n  你好 🎉  \"") == false)
        #expect(text.hasSuffix("}\n"))
    }

    @Test("cues are numbered from 1 without gaps after empty and duplicate segments are dropped")
    func numbering() {
        let segments = [
            TranscriptSegment(text: "one", startSeconds: 0, endSeconds: 1),
            TranscriptSegment(text: "   ", startSeconds: 1, endSeconds: 2),
            TranscriptSegment(text: "one", startSeconds: 0, endSeconds: 1),
            TranscriptSegment(text: "two", startSeconds: 2, endSeconds: 3),
        ]
        #expect(export(.srt, segments) == """
            1
            00:00:00,000 --> 00:00:01,000
            one

            2
            00:00:02,000 --> 00:00:03,000
            two

            """)
    }

    @Test("an empty transcript gives an empty SRT and a header-only WebVTT")
    func empty() {
        #expect(export(.srt, []) == "")
        #expect(export(.vtt, []) == "WEBVTT\n")
    }

    @Test("a recording's last short cue ends with its audio: 0.62 s of audio gives 0.48 to 0.62, not to 1.48 (the API's subtitles: MultipartFormTests)")
    func lastCueEndsWithTheAudio() {
        var recording = ExportFixtures.recording
        recording.durationSeconds = 0.62
        let segments = [TranscriptSegment(text: "Mr. President.", startSeconds: 0.48, endSeconds: 0.5)]
        #expect(TranscriptExporter().export(recording: recording, segments: segments, format: .srt)
            == "1\n00:00:00,480 --> 00:00:00,620\nMr. President.\n")
        #expect(TranscriptExporter().export(recording: recording, segments: segments, format: .vtt)
            == "WEBVTT\n\n1\n00:00:00.480 --> 00:00:00.620\nMr. President.\n")
    }

    @Test("no cue text line contains --> and no cue has a blank line", arguments: [
        "a --> b", "--->", "a\n\nb", "\r\n\r\nx\r\n", "-- >", "x\u{2028}\u{2028}y", "<-->", "------>>",
    ])
    func cueSafety(text: String) {
        for format in [ExportFormat.srt, .vtt] {
            let output = export(format, [TranscriptSegment(text: text, startSeconds: 1, endSeconds: 2)])
            let lines = output.components(separatedBy: "\n")
            let arrowLines = lines.filter { $0.contains("-->") }
            #expect(arrowLines == [format == .srt ? "00:00:01,000 --> 00:00:02,000" : "00:00:01.000 --> 00:00:02.000"])
            let cue = format == .srt ? Array(lines.dropFirst(2)) : Array(lines.dropFirst(4))
            #expect(cue.last == "")
            #expect(!cue.dropLast().contains(""), "blank line inside the cue of \(format): \(output.debugDescription)")
        }
    }
}
