import Foundation

/// How much text one subtitle cue may hold and for how long it may stay on screen.
///
/// The default, `broadcast`, follows the common subtitle guidelines of broadcasters and streaming
/// services: at most 42 characters per line, at most 2 lines, at most 7 seconds per cue, and at
/// least 1 second on screen where the next cue leaves room.
///
/// ```swift
/// let exporter = TranscriptExporter(subtitleLayout: SubtitleLayout(maximumLineCharacters: 32))
/// ```
public struct SubtitleLayout: Sendable, Equatable {
    /// Characters per line (user-visible characters, grapheme clusters); at least 1. A single word
    /// longer than this gets a line of its own: words are never cut.
    public var maximumLineCharacters: Int
    /// Lines per cue; at least 1.
    public var maximumLines: Int
    /// Seconds a cue may last; more than 0. Applied where the words have times of their own: a
    /// segment without word times is split by characters only, its cues timed in proportion to
    /// their characters, because when each word was said is not known.
    public var maximumCueSeconds: Double
    /// Seconds a cue stays on screen at least, where the next cue starts late enough; from 0 to
    /// `maximumCueSeconds`. A shorter cue (a word said in a moment, a segment that starts and ends
    /// at one instant) is kept on screen into the pause after it.
    public var minimumCueSeconds: Double

    /// Values below the minimum are raised to it (1 character, 1 line, 0.1 s); NaN seconds become
    /// 7 and 1; the minimum is at most the maximum.
    public init(maximumLineCharacters: Int = 42, maximumLines: Int = 2, maximumCueSeconds: Double = 7,
                minimumCueSeconds: Double = 1) {
        self.maximumLineCharacters = max(1, maximumLineCharacters)
        self.maximumLines = max(1, maximumLines)
        self.maximumCueSeconds = maximumCueSeconds.isNaN ? 7 : max(0.1, maximumCueSeconds)
        self.minimumCueSeconds = min(self.maximumCueSeconds, minimumCueSeconds.isNaN ? 1 : max(0, minimumCueSeconds))
    }

    /// 42 characters per line, 2 lines, 7 seconds, at least 1 second: the broadcasters' guidelines.
    public static let broadcast = SubtitleLayout()
}
