import Foundation

/// Something that happened in the product that the user may feel in their hand.
///
/// Product events, not gestures: a front end reports what happened ("the recording was saved"),
/// and `HapticPolicy` decides whether and how it is felt.
public enum HapticEvent: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// A tab or screen changed.
    case navigation
    /// An item was picked from a menu or picker.
    case menuSelection
    /// A primary button with no event of its own (open the save sheet, share).
    case primaryAction
    /// Recording started.
    case recordingStarted
    /// Recording paused (by the user or by an interruption).
    case recordingPaused
    /// Recording resumed.
    case recordingResumed
    /// Recording stopped; the save sheet follows.
    case recordingStopped
    /// The recording was saved into the library.
    case recordingSaved
    /// The draft was discarded.
    case recordingDiscarded
    /// Playback started or paused.
    case playbackToggled
    /// Playback jumped to a transcript segment.
    case transcriptSeek
    /// Text was copied.
    case copied
    /// An audio file was imported into the library.
    case imported
    /// A re-transcription finished.
    case retranscribed
    /// A summary and tags were written.
    case analyzed
    /// A recording was deleted.
    case deleted
    /// The user tried something not allowed now (changing the language while recording).
    case blocked
    /// Something needs attention but nothing failed (low storage, permission missing).
    case warning
    /// An operation failed.
    case failure
}

/// A feedback the device can play, named as UIKit's feedback generators name them.
public enum HapticFeedback: Sendable, Equatable, Hashable {
    /// The weight of an impact (`UIImpactFeedbackGenerator.FeedbackStyle`).
    public enum ImpactStyle: String, Sendable, Equatable, Hashable, CaseIterable {
        case light, medium, heavy, soft, rigid
    }

    /// The outcome a notification feedback reports (`UINotificationFeedbackGenerator.FeedbackType`).
    public enum NotificationType: String, Sendable, Equatable, Hashable, CaseIterable {
        case success, warning, error
    }

    /// A selection changed (`UISelectionFeedbackGenerator`).
    case selection
    /// A physical impact.
    case impact(ImpactStyle)
    /// A task's outcome.
    case notification(NotificationType)
}
