import Foundation
import LiveTranscriberCore

/// Where links and intents arrive in the app, in order, including those that arrive before the
/// app has finished launching (a cold start from the Live Activity).
///
/// The app sets `handler` once at launch; links that came earlier are held and handed over then.
/// In the widget extension no handler is ever set, and nothing is delivered there: its intents run
/// in the app's process.
@MainActor
final class DeepLinkInbox {
    static let shared = DeepLinkInbox()

    private var pending: [LiveTranscriberDeepLink] = []
    private var handler: ((LiveTranscriberDeepLink) async -> Void)?

    /// Installs the one handler and hands it the links that arrived before it.
    func setHandler(_ handler: @escaping (LiveTranscriberDeepLink) async -> Void) async {
        self.handler = handler
        let early = pending
        pending.removeAll()
        for link in early { await handler(link) }
    }

    /// Delivers `link` to the handler, or keeps it until there is one.
    func deliver(_ link: LiveTranscriberDeepLink) async {
        if let handler {
            await handler(link)
        } else {
            pending.append(link)
        }
    }
}
