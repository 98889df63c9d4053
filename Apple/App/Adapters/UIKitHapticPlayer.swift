import LiveTranscriberCore
import UIKit

/// Plays the core's feedback kinds with UIKit's feedback generators. Which event is felt, and how
/// often, is `HapticPolicy`'s decision; this only maps kinds to generators.
struct UIKitHapticPlayer: HapticPlayer {
    func play(_ feedback: HapticFeedback) {
        Task { @MainActor in Self.playNow(feedback) }
    }

    @MainActor
    private static func playNow(_ feedback: HapticFeedback) {
        switch feedback {
        case .selection:
            UISelectionFeedbackGenerator().selectionChanged()
        case .impact(let style):
            UIImpactFeedbackGenerator(style: impactStyle(style)).impactOccurred()
        case .notification(let type):
            UINotificationFeedbackGenerator().notificationOccurred(notificationType(type))
        }
    }

    private static func impactStyle(_ style: HapticFeedback.ImpactStyle) -> UIImpactFeedbackGenerator.FeedbackStyle {
        switch style {
        case .light: .light
        case .medium: .medium
        case .heavy: .heavy
        case .soft: .soft
        case .rigid: .rigid
        }
    }

    private static func notificationType(
        _ type: HapticFeedback.NotificationType
    ) -> UINotificationFeedbackGenerator.FeedbackType {
        switch type {
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
    }
}
