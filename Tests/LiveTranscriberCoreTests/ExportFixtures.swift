import Foundation
import LiveTranscriberCore

/// A recording and transcript shared by the exporter tests.
enum ExportFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static let recording = Recording(
        id: "rec-1", name: "Team *sync*", createdAt: t0, durationSeconds: 3601.25, language: "en-US",
        tags: ["work", "weekly"], audio: AudioDescription(format: "wav", sampleRate: 48_000, channels: 2),
        summary: "Plans for the launch.")

    static let segments = [
        TranscriptSegment(text: "Hello & welcome <everyone>", startSeconds: 0, endSeconds: 1.5),
        TranscriptSegment(text: "Next -> step --> done", startSeconds: 1.5, endSeconds: 3.25),
        TranscriptSegment(text: "第一行\n\n  你好 🎉  ", startSeconds: 3.25, endSeconds: 4.9995),
        TranscriptSegment(text: "مرحبا بالعالم", startSeconds: 5, endSeconds: 3600.0004),
    ]
}
