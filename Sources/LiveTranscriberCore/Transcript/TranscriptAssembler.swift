import Foundation

/// Builds the live transcript from recognition events.
///
/// Committed and tentative text are kept apart: `finals` only grows (ordered by start time),
/// `interim` is a single line that each new interim result replaces and a final clears, so
/// interim text turning final is never shown twice.
public struct TranscriptAssembler: Sendable, Equatable {
    /// Final segments, ordered by start time, with sane times.
    public private(set) var finals: [TranscriptSegment] = []
    /// The interim (volatile) line of the utterance in progress, if any.
    public private(set) var interim: String?

    /// What an event changed, for views that update in place.
    public enum Change: Sendable, Equatable {
        case none
        case interimChanged
        /// A final segment was added at this index of `finals`.
        case finalAdded(index: Int)
    }

    public init() {}

    /// Applies one event.
    /// - Returns: what changed; `.none` for an empty or repeated interim, or an empty final.
    public mutating func apply(_ event: RecognitionEvent) -> Change {
        switch event {
        case .interim(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let next: String? = trimmed.isEmpty ? nil : trimmed
            guard next != interim else { return .none }
            interim = next
            return .interimChanged
        case .final(let segment):
            interim = nil
            guard let sane = Self.sanitized(segment) else { return .interimChanged }
            // Finals arrive in order from a streaming engine; insertion keeps order if one does not.
            let index = finals.lastIndex(where: { $0.startSeconds <= sane.startSeconds }).map { $0 + 1 } ?? 0
            finals.insert(sane, at: index)
            return .finalAdded(index: index)
        }
    }

    /// Final text followed by the interim line, separated by spaces.
    public var text: String {
        (finals.map(\.text) + (interim.map { [$0] } ?? [])).joined(separator: " ")
    }

    /// A segment cleaned by the one segment rule, `SegmentSanitizer.cleaned` (the exporter's too).
    public static func sanitized(_ segment: TranscriptSegment) -> TranscriptSegment? {
        SegmentSanitizer.cleaned(segment)
    }
}
