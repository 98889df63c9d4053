import Foundation

/// How a recording status looks on every surface: words, dot color and glyph.
public struct ActivityStatusStyle: Sendable, Equatable, Hashable {
    /// The status dot's color.
    public enum DotColor: String, Sendable, Equatable, Hashable, CaseIterable {
        case red
        case amber
        case green

        /// sRGB hex for SVG and web previews (iOS system red, orange and green).
        public var hex: String {
            switch self {
            case .red: "#FF3B30"
            case .amber: "#FF9F0A"
            case .green: "#30D158"
            }
        }

        /// The ANSI SGR foreground code for terminals.
        public var ansiCode: String {
            switch self {
            case .red: "31"
            case .amber: "33"
            case .green: "32"
            }
        }
    }

    /// The small status symbol of the compact and minimal presentations.
    public enum Glyph: String, Sendable, Equatable, Hashable, CaseIterable {
        case recording
        case paused
        case stopped

        /// A text stand-in for terminals and previews.
        public var text: String {
            switch self {
            case .recording: "●"
            case .paused: "❚❚"
            case .stopped: "■"
            }
        }

        /// The SF Symbol the iOS widget draws.
        public var systemImageName: String {
            switch self {
            case .recording: "record.circle.fill"
            case .paused: "pause.circle.fill"
            case .stopped: "stop.circle.fill"
            }
        }
    }

    /// "Recording", "Paused" or "Stopped".
    public var text: String
    /// The dot beside the words.
    public var dotColor: DotColor
    /// The symbol of the compact and minimal presentations.
    public var glyph: Glyph

    /// The style for `status`: recording red, paused amber, stopped green.
    public init(_ status: RecordingActivityAttributes.ContentState.Status) {
        switch status {
        case .recording:
            self.text = "Recording"; dotColor = .red; glyph = .recording
        case .paused:
            self.text = "Paused"; dotColor = .amber; glyph = .paused
        case .stopped:
            self.text = "Stopped"; dotColor = .green; glyph = .stopped
        }
    }
}
