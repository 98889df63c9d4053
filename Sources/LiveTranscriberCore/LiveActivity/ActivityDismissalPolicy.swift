import Foundation

/// When an ended Live Activity leaves the Lock Screen; mirrors ActivityKit's dismissal policy.
///
/// Apple: an ended activity stays on the Lock Screen for up to four hours by default (`.default`).
public enum ActivityDismissalPolicy: Sendable, Equatable, Hashable, Codable {
    /// Removed at once.
    case immediate
    /// The system decides (up to four hours on the Lock Screen).
    case `default`
    /// Removed at the given date, or at four hours if that is later.
    case after(Date)

    /// The name used in JSON feeds: "immediate", "default" or "after".
    public var name: String {
        switch self {
        case .immediate: "immediate"
        case .default: "default"
        case .after: "after"
        }
    }

    /// The dismissal date for `.after`, else nil.
    public var date: Date? {
        if case .after(let date) = self { return date }
        return nil
    }
}
