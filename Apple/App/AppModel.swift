import Foundation
import LiveTranscriberCore
import Observation

/// The app's tabs.
enum AppTab: Hashable {
    case record, recordings, settings
}

/// The app's state: the three screens' models, the selected tab, haptics, and the one place
/// links are handled.
@MainActor
@Observable
final class AppModel {
    var selectedTab: AppTab = .record
    /// A one-line message for an alert (a link that could not be followed).
    var message: String?
    var isShowingMessage = false

    let record: RecordModel
    let library: LibraryModel
    let settings: SettingsModel
    let haptics: HapticCoordinator
    private let dependencies: AppDependencies

    init(dependencies: AppDependencies) {
        self.dependencies = dependencies
        let settings = SettingsModel(dependencies: dependencies)
        let haptics = HapticCoordinator(clock: dependencies.clock, player: dependencies.hapticPlayer)
        haptics.isEnabled = settings.hapticsEnabled
        settings.onHapticsChanged = { [haptics] enabled in haptics.isEnabled = enabled }
        let library = LibraryModel(dependencies: dependencies, haptics: haptics, settings: settings)
        settings.onLibraryChanged = { [library] in library.reload() }
        self.settings = settings
        self.haptics = haptics
        self.library = library
        self.record = RecordModel(dependencies: dependencies, haptics: haptics, settings: settings) { [library] in
            library.reload()
        }
    }

    /// Start-up work: recover drafts a crash left, end Live Activities nobody owns any more,
    /// load the library.
    func launched() {
        dependencies.endLeftoverActivities()
        library.recoverDrafts()
        library.reload()
    }

    /// Handles a `livetranscriber://` URL (from a widget, the Live Activity or another app).
    func open(url: URL) {
        do {
            open(try LiveTranscriberDeepLink(url: url))
        } catch {
            show(error.description)
            haptics.occurred(.blocked)
        }
    }

    /// Handles a deep link or the stop intent: the one place links act.
    ///
    /// A stop link stops and saves the recording it names (never deletes; a link for an older
    /// recording is ignored, `LiveTranscriberDeepLink.matches`), the others open a tab.
    func open(_ link: LiveTranscriberDeepLink) {
        switch link {
        case .stopRecording:
            guard link.matches(currentSession: record.recordingID) else { return }
            selectedTab = .record
            record.stopAndSave()
        case .record:
            selectedTab = .record
        case .recordings:
            selectedTab = .recordings
        case .settings:
            selectedTab = .settings
        }
    }

    func show(_ text: String) {
        message = text
        isShowingMessage = true
    }
}
