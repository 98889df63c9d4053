import Foundation
import LiveTranscriberCore

/// One recording in progress as the web page's Live view shows it, folded from what its recorder
/// writes to the library's `live/<id>/` folder: the live event stream (`RecordingStreamEvent`,
/// docs/live-events.md) and the Live Activity's requests and updates (attributes and content state).
///
/// The card is the terminal's live card in other clothes: the Lock Screen presentation's status,
/// dot and timer, language and segment count (`LockScreenPresentation`), the interim line, and the
/// final lines newest first with their start times (`ElapsedTimeFormat.clock`).
///
/// ```swift
/// var view = LiveRecordingView(id: draftID)
/// for line in eventLines { if let event = try? JSONDecoder().decode(RecordingStreamEvent.self, from: Data(line.utf8)) { view.apply(event) } }
/// view.applyActivity(attributes: attributes, content: content)
/// let card = view.card
/// ```
public struct LiveRecordingView: Sendable, Equatable {
    /// A final line of the card.
    public struct FinalLine: Sendable, Equatable, Codable {
        /// Seconds from the start of the recording where the segment starts.
        public var start: Double
        /// `start` as the card shows it ("1:05").
        public var time: String
        public var text: String

        public init(start: Double, time: String, text: String) {
            self.start = start
            self.time = time
            self.text = text
        }
    }

    /// The clock of the card: ticking from a reference date, or fixed text.
    public struct Timer: Sendable, Equatable, Codable {
        /// True while recording: the clock counts up from `from`, pauses excluded.
        public var ticking: Bool
        /// The instant a ticking clock counts from (now minus the seconds recorded); nil when fixed.
        public var from: Date?
        /// What the clock shows at the moment the card was made ("1:30").
        public var text: String

        public init(ticking: Bool, from: Date?, text: String) {
            self.ticking = ticking
            self.from = from
            self.text = text
        }
    }

    /// What the page draws for the recording.
    public struct Card: Sendable, Equatable, Codable {
        /// The draft's id (`drafts/<id>/`, `live/<id>/`).
        public var id: String
        /// The recording's name, once the Live Activity has started; nil before.
        public var name: String?
        /// The session's phase (`RecordingSession.Phase`'s raw value: "preparing", "recording"…).
        public var phase: String
        /// "Recording", "Paused", "Stopped", or "Preparing" before the Live Activity has started.
        public var status: String
        /// The status dot's color: "red", "amber" or "green" (`ActivityStatusStyle.DotColor`).
        public var dot: String
        /// The dot's sRGB hex ("#FF3B30").
        public var dotHex: String
        public var timer: Timer
        /// BCP 47 tag ("en-US"); nil before the Live Activity has started.
        public var language: String?
        public var segmentCount: Int
        /// "1 segment", "12 segments".
        public var segmentCountText: String
        /// The interim line, nil when there is none.
        public var interim: String?
        /// Final lines, newest first.
        public var finals: [FinalLine]
        /// True once the recording was saved or discarded, or its recorder is gone: nothing more will come.
        public var finished: Bool
        /// True once the recording was saved (as `id`): only then does a link to it lead somewhere.
        public var saved: Bool
        /// A sentence on what became of a recording that did not end as saved (`interruptedNote`); nil otherwise.
        public var note: String?
    }

    /// The status of a recording whose recorder went without saying saved or discarded (killed, crashed).
    public static let interruptedStatus = "Interrupted"
    /// The status of a recording its recorder discarded.
    public static let discardedStatus = "Discarded"
    /// What the card of an interrupted recording says: its draft is recovered later, not saved yet.
    public static let interruptedNote = "The recorder ended without saving; the next livetranscriber command recovers what it recorded."

    /// The draft's id.
    public let id: String
    /// The last phase the stream announced ("preparing" until one arrives).
    public private(set) var phase = "preparing"
    /// Final segments in the order they came (oldest first).
    public private(set) var finals: [FinalLine] = []
    /// The interim line; nil when cleared or replaced by a final.
    public private(set) var interim: String?
    /// The Live Activity's attributes, from its request.
    public private(set) var attributes: RecordingActivityAttributes?
    /// The Live Activity's latest content state.
    public private(set) var content: RecordingActivityAttributes.ContentState?
    /// When the recorder was found gone without saying it saved or discarded (it crashed, or its
    /// last lines were not read); nil while it records.
    public private(set) var goneAt: Date?

    public init(id: String) {
        self.id = id
    }

    /// True once the stream said the recording was saved or discarded, or the recorder is gone.
    public var isFinished: Bool { RecordingSession.Phase(rawValue: phase)?.isOutcome == true || goneAt != nil }

    /// Notes that the recorder is gone at `now` (its draft no longer held): the card is finished,
    /// and a clock that was ticking stops at `now`.
    public mutating func recorderGone(at now: Date) {
        if goneAt == nil { goneAt = now }
    }

    /// Takes one event of the live stream: a phase, the interim line (empty text clears it), or a
    /// final (which also clears the interim line, as the recorder's transcript does).
    public mutating func apply(_ event: RecordingStreamEvent) {
        switch event.type {
        case .phase:
            if let phase = event.phase { self.phase = phase }
        case .interim:
            interim = (event.text ?? "").isEmpty ? nil : event.text
        case .final:
            interim = nil
            finals.append(FinalLine(start: event.audioStart, time: ElapsedTimeFormat.clock(event.audioStart), text: event.text ?? ""))
        }
    }

    /// Takes the Live Activity's request or update: `attributes` when it starts (nil keeps those
    /// known), `content` whenever it is given (nil keeps the last, as an end without content does).
    public mutating func applyActivity(attributes: RecordingActivityAttributes?, content: RecordingActivityAttributes.ContentState?) {
        if let attributes { self.attributes = attributes }
        if let content { self.content = content }
    }

    /// The card at `now` (for the fixed text of a ticking clock): as drawn from the stream and the
    /// Live Activity, then said as it ended: saved, discarded ("Discarded") or interrupted
    /// ("Interrupted", amber, with `interruptedNote`: nothing was saved, and there is nothing to open).
    public func card(now: Date) -> Card {
        var card = drawnCard(now: now)
        card.saved = phase == RecordingSession.Phase.saved.rawValue
        if phase == RecordingSession.Phase.discarded.rawValue {
            card.status = Self.discardedStatus
        } else if goneAt != nil && !card.saved {
            let style = ActivityStatusStyle(.paused)
            card.status = Self.interruptedStatus
            card.dot = style.dotColor.rawValue
            card.dotHex = style.dotColor.hex
            card.note = Self.interruptedNote
        }
        return card
    }

    private func drawnCard(now: Date) -> Card {
        let finished = isFinished
        guard let attributes, let content else {
            let style = ActivityStatusStyle(.paused)
            return Card(id: id, name: nil, phase: phase, status: finished ? "Stopped" : "Preparing", dot: style.dotColor.rawValue,
                        dotHex: style.dotColor.hex, timer: Timer(ticking: false, from: nil, text: ElapsedTimeFormat.clock(0)),
                        language: nil, segmentCount: finals.count, segmentCountText: LockScreenPresentation.segmentCountText(finals.count),
                        interim: finished ? nil : interim, finals: finals.reversed(), finished: finished, saved: false, note: nil)
        }
        let presentation = LockScreenPresentation(attributes: attributes, content: content)
        let timer: Timer
        switch presentation.timer {
        case .ticking(let reference):
            if let goneAt {
                timer = Timer(ticking: false, from: nil, text: presentation.timer.text(at: goneAt))
            } else {
                timer = Timer(ticking: true, from: reference, text: presentation.timer.text(at: now))
            }
        case .fixed(let text):
            timer = Timer(ticking: false, from: nil, text: text)
        }
        return Card(id: id, name: presentation.recordingName, phase: phase, status: presentation.status.text,
                    dot: presentation.status.dotColor.rawValue, dotHex: presentation.status.dotColor.hex, timer: timer,
                    language: presentation.language, segmentCount: presentation.segmentCount,
                    segmentCountText: presentation.segmentCountText, interim: finished ? nil : interim,
                    finals: finals.reversed(), finished: finished, saved: false, note: nil)
    }

    /// Seconds the Live Activity's clock shows at `now`: counted from its reference date while
    /// recording, else the fixed seconds; 0 before the activity started. For drawings that cannot
    /// tick themselves (the SVG previews).
    public func elapsedSeconds(now: Date) -> Double {
        guard let content else { return 0 }
        if content.status == .recording { return ElapsedTimeFormat.elapsed(since: content.timerReferenceDate, now: goneAt ?? now) }
        return content.elapsedSeconds ?? 0
    }
}
