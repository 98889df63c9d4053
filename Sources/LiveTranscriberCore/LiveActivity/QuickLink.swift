import Foundation

/// A shortcut into the app from a widget: where it goes, its words and its symbol.
///
/// The quick-link widgets show these three; none of them acts on a recording, so they are safe
/// on a Lock Screen.
public struct QuickLink: Sendable, Equatable, Hashable, Identifiable {
    /// Where the shortcut goes.
    public var link: LiveTranscriberDeepLink
    /// The words under the symbol ("Record").
    public var title: String
    /// The SF Symbol the widget draws.
    public var systemImageName: String

    /// Stable per destination ("record").
    public var id: String { link.destination }

    public init(link: LiveTranscriberDeepLink, title: String, systemImageName: String) {
        self.link = link
        self.title = title
        self.systemImageName = systemImageName
    }

    /// Opens the Record tab.
    public static let record = QuickLink(link: .record, title: "Record", systemImageName: "mic.fill")
    /// Opens the library.
    public static let recordings = QuickLink(link: .recordings, title: "Recordings", systemImageName: "list.bullet")
    /// Opens Settings.
    public static let settings = QuickLink(link: .settings, title: "Settings", systemImageName: "gearshape")

    /// The three shortcuts, in the order the widget shows them.
    public static let all: [QuickLink] = [.record, .recordings, .settings]

    /// Where tapping the Live Activity itself (not its stop action) goes: the Record tab, where the
    /// recording it shows is. Never a stop: only the explicit stop action stops.
    public static let activityTapLink = LiveTranscriberDeepLink.record
}
