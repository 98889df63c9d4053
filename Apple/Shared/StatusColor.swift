import LiveTranscriberCore
import SwiftUI

extension ActivityStatusStyle.DotColor {
    /// The SwiftUI color for the core's status dot: iOS system red, orange and green.
    var color: Color {
        switch self {
        case .red: .red
        case .amber: .orange
        case .green: .green
        }
    }
}
