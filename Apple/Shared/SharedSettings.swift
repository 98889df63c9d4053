import Foundation
import LiveTranscriberCore

/// Settings the widget extension reads from the app: stored in the app group's defaults, the
/// one place both processes can see.
enum SharedSettings {
    /// The app group both targets are entitled to (Apple/project.yml).
    static let appGroup = "group.app.livetranscriber"

    private static let hideTranscriptKey = "hideTranscriptOnLockScreen"

    private static var defaults: UserDefaults { UserDefaults(suiteName: appGroup) ?? .standard }

    /// The Lock Screen privacy setting, as the core's presentations take it.
    static var presentation: PresentationSettings {
        PresentationSettings(hideTranscriptOnLockScreen: defaults.bool(forKey: hideTranscriptKey))
    }

    /// Written by Settings in the app.
    static func setHideTranscriptOnLockScreen(_ hide: Bool) {
        defaults.set(hide, forKey: hideTranscriptKey)
    }
}
