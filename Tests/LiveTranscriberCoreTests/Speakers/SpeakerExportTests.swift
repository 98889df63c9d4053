import Foundation
import LiveTranscriberCore
import Testing

/// Speaker names in every export: a name before each turn in TXT and MD, "Name:" at each turn in
/// SRT, a `<v Name>` voice span on each WebVTT cue; and the language where it changes: "(de) " in
/// TXT, MD and SRT, a `<lang de>` span on each WebVTT cue in another language (issue 37).
struct SpeakerExportTests {
    static let recording = Recording(
        id: "20261207-100000-abcd", name: "Interview", createdAt: Date(timeIntervalSince1970: 1_796_637_600), durationSeconds: 12,
        language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1),
        speakers: [Speaker(id: "S1", name: "Anna <Host> & co"), Speaker(id: "S2")])
    static let segments = [
        TranscriptSegment(text: "Welcome to the show.", startSeconds: 0, endSeconds: 2, speaker: "S1"),
        TranscriptSegment(text: "Today we talk about bees.", startSeconds: 2.5, endSeconds: 4.5, speaker: "S1"),
        TranscriptSegment(text: "Thanks for having me.", startSeconds: 5, endSeconds: 7, speaker: "S2"),
        TranscriptSegment(text: "Guten Morgen.", startSeconds: 8, endSeconds: 9, language: "de", speaker: "S1"),
        TranscriptSegment(text: "Nobody said this.", startSeconds: 10, endSeconds: 11),
    ]

    func export(_ format: ExportFormat) -> String {
        TranscriptExporter().export(recording: Self.recording, segments: Self.segments, format: format)
    }

    @Test func thePlainTextNamesTheSpeakerAtEachTurn() {
        #expect(export(.txt) == """
            Interview

            [00:00:00] Anna <Host> & co: Welcome to the show.
            [00:00:02] Today we talk about bees.
            [00:00:05] Speaker 2: Thanks for having me.
            [00:00:08] Anna <Host> & co: (de) Guten Morgen.
            [00:00:10] (en-US) Nobody said this.

            """)
    }

    @Test func markdownEscapesTheSpeakersName() {
        #expect(export(.md).hasSuffix("""
            ## Transcript

            **00:00:00** Anna \\<Host\\> & co: Welcome to the show.

            **00:00:02** Today we talk about bees.

            **00:00:05** Speaker 2: Thanks for having me.

            **00:00:08** Anna \\<Host\\> & co: (de) Guten Morgen.

            **00:00:10** (en-US) Nobody said this.

            """))
    }

    @Test func subRipStartsEachTurnWithTheNameAndNamesTheLanguageWhereItChanges() {
        let cues = export(.srt).components(separatedBy: "\n\n").map { $0.split(separator: "\n").dropFirst(2).joined(separator: "\n") }
        #expect(cues == ["Anna <Host> & co: Welcome to the show.", "Today we talk about bees.", "Speaker 2: Thanks for having me.",
                         "Anna <Host> & co: (de) Guten Morgen.", "(en-US) Nobody said this."])
    }

    @Test func webVTTCuesAreVoiceSpansThatAParserReads() throws {
        let vtt = export(.vtt)
        #expect(vtt.contains("\n<v Anna &lt;Host&gt; &amp; co>Welcome to the show.\n"))
        #expect(vtt.contains("\n<v Speaker 2>Thanks for having me.\n"))
        #expect(vtt.contains("\n<v Anna &lt;Host&gt; &amp; co><lang de>Guten Morgen.</lang>\n"))
        let parsed = try SubtitleParserTests().parse(srt: export(.srt), vtt: vtt)
        // python3-webvtt keeps the voice span in the raw text and reads the cue text without it.
        #expect(parsed.vtt.map { $0[3] } == [
            .text("<v Anna &lt;Host&gt; &amp; co>Welcome to the show."), .text("<v Anna &lt;Host&gt; &amp; co>Today we talk about bees."),
            .text("<v Speaker 2>Thanks for having me."), .text("<v Anna &lt;Host&gt; &amp; co><lang de>Guten Morgen.</lang>"),
            .text("Nobody said this."),
        ])
        #expect(parsed.srt.count == 5)
    }

    @Test func theJSONExportHasEachSegmentsSpeakerAndTheRecordingsSpeakers() throws {
        let decoded = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(export(.json).utf8))
        #expect(decoded.recording.speakers == Self.recording.speakers)
        #expect(decoded.segments.map(\.speaker) == ["S1", "S1", "S2", "S1", nil])
        #expect(export(.json).contains("\"speakers\" : [\n    {\n      \"id\" : \"S1\",\n      \"name\" : \"Anna <Host> & co\"\n    },\n    {\n      \"id\" : \"S2\",\n      \"name\" : null\n    }\n  ]"))
    }
}
