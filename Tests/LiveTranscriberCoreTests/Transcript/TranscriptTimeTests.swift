import Foundation
import LiveTranscriberCore
import Testing

@Suite("Transcript times are whole milliseconds")
struct TranscriptTimeTests {
    // 4.49 + 0.014 is how an engine sums an utterance's offset and a word's time: the double
    // 4.5040000000000004, which `export --format json` printed in trial 5.
    static let noisyEnd = 4.49 + 0.014

    @Test("seconds are rounded to whole milliseconds, half away from zero; NaN, infinities and huge values are left as they are", arguments: [
        (4.5040000000000004, 4.504), (1.0919999999999999, 1.092), (0.28800000000000003, 0.288),
        (0.0625, 0.063), (0.0004, 0), (2.5, 2.5), (3600, 3600), (-1.2345, -1.235),
    ])
    func rounded(seconds: Double, expected: Double) {
        #expect(TranscriptTime.rounded(seconds) == expected)
    }

    @Test("special values: -0.0004 is +0, NaN stays NaN, infinity and 1e300 are unchanged")
    func specialValues() {
        #expect(TranscriptTime.rounded(-0.0004).sign == .plus)
        #expect(TranscriptTime.rounded(.nan).isNaN)
        #expect(TranscriptTime.rounded(.infinity) == .infinity)
        #expect(TranscriptTime.rounded(1e300) == 1e300)
    }

    @Test("a segment and its words made from summed seconds print 4.504 in JSON, not 4.5040000000000004")
    func madeFromSums() throws {
        #expect(Self.noisyEnd != 4.504)
        let segment = TranscriptSegment(text: "Dashwood", startSeconds: 4.1 + 0.2, endSeconds: Self.noisyEnd, words: [
            WordTiming(word: "Dashwood", startSeconds: 4.1 + 0.2, endSeconds: Self.noisyEnd),
        ])
        #expect(try JSONText.line(segment) ==
                #"{"end":4.504,"start":4.3,"text":"Dashwood","words":[{"end":4.504,"start":4.3,"word":"Dashwood"}]}"#)
    }

    @Test("a time set after the segment is made is rounded too (the sanitizer moves starts and ends)")
    func setLater() {
        var segment = TranscriptSegment(text: "x", startSeconds: 0, endSeconds: 1)
        segment.endSeconds = Self.noisyEnd
        var word = WordTiming(word: "x", startSeconds: 0, endSeconds: 1)
        word.startSeconds = Self.noisyEnd
        #expect(segment.endSeconds == 4.504)
        #expect(word.startSeconds == 4.504)
    }

    @Test("a transcript saved with the noise (before this rule) reads back rounded and prints 4.504")
    func readFromOldFile() throws {
        let stored = #"[{"end":4.5040000000000004,"start":0.28800000000000003,"text":"a","words":[{"end":4.5040000000000004,"start":1.0919999999999999,"word":"a"}]}]"#
        let segments = try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: Data(stored.utf8))
        #expect(segments == [TranscriptSegment(text: "a", startSeconds: 0.288, endSeconds: 4.504,
                                               words: [WordTiming(word: "a", startSeconds: 1.092, endSeconds: 4.504)])])
        #expect(try JSONText.line(segments) == #"[{"end":4.504,"start":0.288,"text":"a","words":[{"end":4.504,"start":1.092,"word":"a"}]}]"#)
    }

    @Test("a search place's start from an index written before this rule is rounded too")
    func searchPlace() {
        let hit = SearchHit(recordingID: "r", recordingName: "n", createdAt: Date(timeIntervalSince1970: 0), field: .transcript,
                            startSeconds: Self.noisyEnd, markedSnippet: "a", score: 1)
        #expect(hit.startSeconds == 4.504)
    }

    @Test("every export of such a segment: JSON, SRT and VTT cues, the event stream and the playback rows say 4.504; text rounds by the same millisecond")
    func everyOutput() throws {
        let segment = TranscriptSegment(text: "Dashwood", startSeconds: 0.288, endSeconds: Self.noisyEnd, words: [
            WordTiming(word: "Dashwood", startSeconds: 0.288, endSeconds: Self.noisyEnd),
        ])
        let exporter = TranscriptExporter(timeZone: TimeZone(identifier: "UTC")!)
        let json = exporter.export(recording: ExportFixtures.recording, segments: [segment], format: .json)
        #expect(json.components(separatedBy: "\n").filter { $0.contains("\"end\"") } == [
            "      \"end\" : 4.504,", "          \"end\" : 4.504,",
        ])
        #expect(exporter.export(recording: ExportFixtures.recording, segments: [segment], format: .srt)
                == "1\n00:00:00,288 --> 00:00:04,504\nDashwood\n")
        #expect(exporter.export(recording: ExportFixtures.recording, segments: [segment], format: .vtt)
                == "WEBVTT\n\n1\n00:00:00.288 --> 00:00:04.504\nDashwood\n")
        let late = TranscriptSegment(text: "late", startSeconds: 59.49 + 0.5099, endSeconds: 61)
        #expect(exporter.export(recording: ExportFixtures.recording, segments: [segment, late], format: .txt)
                == "Team *sync*\n\n[00:00:00] Dashwood\n[00:01:00] late\n")
        var stream = RecordingEventStream()
        #expect(stream.line(for: .finalAdded(segment), elapsedSeconds: 5) ==
                #"{"audio_end":4.504,"audio_start":0.288,"elapsed":5,"text":"Dashwood","type":"final","words":[{"end":4.504,"start":0.288,"word":"Dashwood"}]}"#)
        let playback = try JSONText.line(PlaybackTranscript([segment]))
        #expect(playback == #"{"rows":[{"index":0,"start":0.288,"time":"0:00","words":["Dashwood"]}],"steps":[{"row":0,"start":0.288,"word":0}]}"#)
    }
}
