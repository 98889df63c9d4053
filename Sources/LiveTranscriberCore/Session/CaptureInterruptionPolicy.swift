import Foundation

/// What happened to live capture, in platform-neutral words (iOS: capture session interruptions
/// and audio route changes; ALSA: a device that went away).
public enum CaptureEvent: Sendable, Equatable {
    /// The system took the microphone (a phone call, an alarm, another app).
    case interruptionBegan
    /// The interruption is over.
    case interruptionEnded
    /// The input device in use went away (a headset unplugged, a Bluetooth microphone lost).
    case inputDeviceLost
    /// Another input device became available and the system may switch to it.
    case inputDeviceAdded
    /// A change that does not touch the microphone (an output route, a category change).
    case otherRouteChange
}

/// Decides what a capture event does to a recording in progress: pause it, or leave it alone.
///
/// The rule: whatever takes the microphone away or may swap it for another pauses the recording,
/// so the file never holds silence that looks like speech was missed, nor a sudden change of
/// microphone the user did not choose; the recording never resumes by itself, so nothing is
/// recorded without the user knowing (they resume from the app or see it paused on the Live
/// Activity).
public enum CaptureInterruptionPolicy {
    /// What to do with the recording.
    public enum Decision: Sendable, Equatable {
        /// Pause it (the elapsed time stops; the Live Activity shows Paused).
        case pause
        /// Leave it as it is.
        case none
    }

    /// The decision for `event` while the recording is in `phase`. Only a recording that is
    /// capturing (`.recording`) is ever paused.
    public static func decide(_ event: CaptureEvent, phase: RecordingSession.Phase) -> Decision {
        guard phase == .recording else { return .none }
        switch event {
        case .interruptionBegan, .inputDeviceLost, .inputDeviceAdded: return .pause
        case .interruptionEnded, .otherRouteChange: return .none
        }
    }
}
