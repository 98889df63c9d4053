import Foundation

/// Who writes a recording's summary and tags.
public enum SummaryEngine: String, Sendable, Equatable, CaseIterable {
    /// `ExtractiveSummarizer`: on this machine, no network, no model.
    case offline
    /// `ModelSummarizer` over an OpenAI-compatible chat model: the transcript text leaves the machine.
    case openai

    /// True when the transcript is sent to a server.
    public var sendsTranscript: Bool { self == .openai }

    /// One line for help text.
    public var summary: String {
        switch self {
        case .offline: "on this machine (default)"
        case .openai: "an OpenAI-compatible chat model; sends the transcript text"
        }
    }

    /// "offline or openai".
    public static var choices: String { allCases.map(\.rawValue).joined(separator: " or ") }
}
