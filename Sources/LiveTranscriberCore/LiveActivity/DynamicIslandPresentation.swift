import Foundation

/// The expanded Dynamic Island as a view model.
///
/// Layout (seed 000): status leading, fixed-width timer trailing; at the bottom the newest final
/// transcript (2 lines, about 130 characters), language, segment count and stop while recording.
public struct ExpandedIslandPresentation: Sendable, Equatable, Hashable {
    /// Lines of transcript shown.
    public static let transcriptLineLimit = 2
    /// Characters (grapheme clusters) of transcript shown.
    public static let transcriptCharacterLimit = 130

    /// Leading: words and dot color.
    public var status: ActivityStatusStyle
    /// Trailing: ticking while recording, fixed otherwise.
    public var timer: TimerDisplay
    /// Bottom: the newest final text, trimmed.
    public var transcript: String
    /// Language tag as sent ("en-US").
    public var language: String
    /// Segment count as a number.
    public var segmentCount: Int
    /// "1 segment", "12 segments".
    public var segmentCountText: String
    /// Present only while recording.
    public var stopAction: LiveTranscriberDeepLink?

    public init(attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState) {
        status = ActivityStatusStyle(content.status)
        timer = TimerDisplay(content)
        transcript = PresentationText.trailingLines(
            content.transcript, maxLines: Self.transcriptLineLimit, maxCharacters: Self.transcriptCharacterLimit)
        language = content.language
        segmentCount = content.segmentCount
        segmentCountText = LockScreenPresentation.segmentCountText(content.segmentCount)
        stopAction = content.status == .recording ? .stopRecording(session: attributes.recordingID) : nil
    }
}

/// The compact Dynamic Island (leading glyph, trailing elapsed time) as a view model.
public struct CompactIslandPresentation: Sendable, Equatable, Hashable {
    /// Characters of the compact transcript helper.
    public static let transcriptCharacterLimit = 28

    /// Leading: the status symbol, drawn without a ring so it is not clipped.
    public var glyph: ActivityStatusStyle.Glyph
    public var dotColor: ActivityStatusStyle.DotColor
    /// The clock: ticking while recording; fixed compact text ("1h05") otherwise.
    public var timer: TimerDisplay
    /// The newest ~28 characters of final text on one line, for surfaces with room for it.
    public var transcript: String

    public init(content: RecordingActivityAttributes.ContentState) {
        let style = ActivityStatusStyle(content.status)
        glyph = style.glyph
        dotColor = style.dotColor
        if content.status == .recording {
            timer = .ticking(from: content.timerReferenceDate)
        } else {
            let seconds = content.elapsedSeconds ?? 0
            timer = .fixed(ElapsedTimeFormat.compact(seconds))
        }
        let oneLine = content.transcript.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
        transcript = PresentationText.suffix(oneLine, maxCharacters: Self.transcriptCharacterLimit)
    }

    /// The compact elapsed time: after `elapsedSeconds` while ticking ("5:09", "1h05"), else the
    /// fixed text; for surfaces that cannot tick themselves.
    public func elapsedText(elapsedSeconds: Double) -> String {
        switch timer {
        case .ticking: ElapsedTimeFormat.compact(elapsedSeconds)
        case .fixed(let text): text
        }
    }
}

/// The minimal Dynamic Island (shared with another activity): a status glyph only.
public struct MinimalIslandPresentation: Sendable, Equatable, Hashable {
    /// The status symbol.
    public var glyph: ActivityStatusStyle.Glyph
    public var dotColor: ActivityStatusStyle.DotColor

    public init(content: RecordingActivityAttributes.ContentState) {
        let style = ActivityStatusStyle(content.status)
        glyph = style.glyph
        dotColor = style.dotColor
    }
}
