import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// The summarize use case every front end calls.
@Suite("Summarizing a recording")
struct RecordingSummarizingTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func library(_ texts: [String]) -> InMemoryRecordingStore {
        InMemoryRecordingStore(
            recordings: [Recording(id: "20261129-204112-aaaa", name: "Standup", createdAt: t0, durationSeconds: 9, language: "en-US",
                                   tags: ["Budget"], audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))],
            transcripts: ["20261129-204112-aaaa": texts.enumerated().map {
                TranscriptSegment(text: $0.element, startSeconds: Double($0.offset) * 3, endSeconds: Double($0.offset) * 3 + 2)
            }])
    }

    /// Answers a fixed summary and counts how often it was made and asked.
    final class FixedSummarizer: Summarizer {
        var calls = 0
        func summarize(segments: [TranscriptSegment], languageHint: String) throws -> TranscriptSummary {
            calls += 1
            return TranscriptSummary(summary: "The budget was agreed.", tags: ["budget", "hiring"], language: .english, engine: "fixed")
        }
    }

    @Test("the summary and its tags are written into the stored recording, tags merged by the tag rules")
    func writes() throws {
        let library = Self.library(["we agreed on the budget", "and on hiring"])
        let summarizer = FixedSummarizer()
        let (recording, summary) = try RecordingSummarizing.summarize("latest", in: library) { summarizer }
        #expect(summary.summary == "The budget was agreed.")
        #expect(recording.summary == "The budget was agreed.")
        #expect(recording.tags == ["Budget", "hiring"])
        #expect(try library.resolve("20261129-204112-aaaa") == recording)
    }

    @Test("a library that cannot be changed is refused before the transcript is read or a summarizer made, and nothing is written")
    func refusesReadOnly() throws {
        let library = Self.library(["we agreed on the budget"])
        library.writeBlock = .readOnly(path: "/media/usb/library", media: true)
        var made = false
        let refusal = #expect(throws: LibraryError.self) {
            try RecordingSummarizing.summarize("latest", in: library) { made = true; return FixedSummarizer() }
        }
        #expect(refusal == .readOnly(.readOnly(path: "/media/usb/library", media: true)))
        #expect(refusal?.description == "the library at /media/usb/library is read-only (read-only media): "
                + "list, show, search and export work, but nothing can be changed or recorded")
        #expect(!made)
        #expect(try library.resolve("latest").summary == nil)
    }

    @Test("a transcript with no text is refused before any summarizer is made, and nothing is written")
    func refusesEmpty() throws {
        let library = Self.library(["  ", "\n"])
        var made = false
        #expect(throws: SummarizingError.noTranscriptText(recordingName: "Standup")) {
            try RecordingSummarizing.summarize("2026", in: library) { made = true; return FixedSummarizer() }
        }
        #expect(!made)
        #expect(try library.resolve("latest").summary == nil)
        #expect("\(SummarizingError.noTranscriptText(recordingName: "Standup"))" == "'Standup' has no transcript text to summarize.")
    }
}
