import Foundation
import LiveTranscriberCore
import Testing

@Suite("Applying a summary to a recording")
struct ApplySummaryTests {
    @Test("the summary replaces the old one; new tags are added, ones present in any case are not, none removed")
    func apply() {
        var recording = Recording(
            id: "20261201-010203-abcd", name: "Standup", createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            durationSeconds: 60, language: "en-US", tags: ["Budget", "mine"],
            audio: AudioDescription(format: "wav", sampleRate: 48_000, channels: 2), summary: "old")
        recording.apply(TranscriptSummary(
            summary: "The team agreed on the budget.", tags: ["budget", "hiring", "Hiring"], language: .english,
            engine: "offline"))
        #expect(recording.summary == "The team agreed on the budget.")
        #expect(recording.tags == ["Budget", "mine", "hiring"])
    }
}
