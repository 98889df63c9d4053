import Foundation
import LiveTranscriberCore

/// Shared instants and values for the Live Activity tests (the core's and the terminal's).
public enum LiveActivityFixture {
    /// 2023-11-14T22:13:20Z; 721,692,800 s after 2001-01-01.
    public static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    public static let attributes = RecordingActivityAttributes(recordingID: "rec-1", name: "Standup", startDate: t0)

    public static func content(
        _ status: RecordingActivityAttributes.ContentState.Status = .recording, reference: Date = t0,
        elapsed: Double? = nil, transcript: String = "", language: String = "en-US", count: Int = 0
    ) -> RecordingActivityAttributes.ContentState {
        RecordingActivityAttributes.ContentState(
            status: status, timerReferenceDate: reference,
            elapsedSeconds: elapsed, transcript: transcript,
            language: language, segmentCount: count)
    }

    public static func segments(_ texts: String...) -> [TranscriptSegment] {
        texts.enumerated().map { TranscriptSegment(text: $1, startSeconds: Double($0), endSeconds: Double($0) + 1) }
    }
}
