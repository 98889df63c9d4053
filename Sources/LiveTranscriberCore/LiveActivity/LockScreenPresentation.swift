import Foundation

/// Settings that change what the presentations show.
public struct PresentationSettings: Sendable, Equatable, Hashable {
    /// Hide the transcript on the Lock Screen, a public surface anyone near the phone can read.
    public var hideTranscriptOnLockScreen: Bool

    public init(hideTranscriptOnLockScreen: Bool = false) {
        self.hideTranscriptOnLockScreen = hideTranscriptOnLockScreen
    }
}

/// The Lock Screen card as a view model: everything the view shows, already trimmed.
///
/// Layout (seed 000): status block with dot top left, fixed-width timer top right, the newest
/// final transcript in the middle (2 lines, about 220 characters), language and segment count in
/// the footer, and a red stop action while recording.
public struct LockScreenPresentation: Sendable, Equatable, Hashable {
    /// Lines of transcript shown.
    public static let transcriptLineLimit = 2
    /// Characters (grapheme clusters) of transcript shown.
    public static let transcriptCharacterLimit = 220
    /// Shown instead of the transcript when the privacy setting hides it.
    public static let hiddenTranscriptText = "Transcript hidden on Lock Screen"

    /// The recording's name (the widget may show it as the card's title).
    public var recordingName: String
    /// Top left: words and dot color.
    public var status: ActivityStatusStyle
    /// Top right: ticking while recording, fixed otherwise.
    public var timer: TimerDisplay
    /// The newest final text, trimmed; nil when hidden by the privacy setting.
    public var transcript: String?
    /// True when the privacy setting hid the transcript.
    public var isTranscriptHidden: Bool
    /// Language tag as sent ("en-US").
    public var language: String
    /// Segment count as a number.
    public var segmentCount: Int
    /// "1 segment", "12 segments".
    public var segmentCountText: String
    /// The stop-and-save action; present only while recording.
    public var stopAction: LiveTranscriberDeepLink?

    public init(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        settings: PresentationSettings = PresentationSettings()
    ) {
        recordingName = attributes.name
        status = ActivityStatusStyle(content.status)
        timer = TimerDisplay(content)
        isTranscriptHidden = settings.hideTranscriptOnLockScreen
        transcript = settings.hideTranscriptOnLockScreen ? nil : PresentationText.trailingLines(
            content.transcript, maxLines: Self.transcriptLineLimit, maxCharacters: Self.transcriptCharacterLimit)
        language = content.language
        segmentCount = content.segmentCount
        segmentCountText = Self.segmentCountText(content.segmentCount)
        stopAction = content.status == .recording ? .stopRecording(session: attributes.recordingID) : nil
    }

    /// "0 segments", "1 segment", "12 segments"; negative counts read as 0.
    public static func segmentCountText(_ count: Int) -> String {
        Plural.count(max(0, count), "segment")
    }
}
