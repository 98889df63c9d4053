import LiveTranscriberTestSupport
import Testing

/// Groups the terminal's Live Activity suites (card, text, SVG previews, JSON Lines feed), so
/// `swift test --filter LiveActivity` runs them with the core's.
@Suite("Live Activity in the terminal")
enum LiveActivityTests {}

/// Shared instants and values for the Live Activity tests.
typealias Fixture = LiveActivityFixture
