import Foundation

/// The rules for when the recording's Live Activity starts, updates and ends: a pure state
/// machine in the swift-nio style. Each event is a `mutating func` that takes the current instant
/// and returns the actions to perform; `LiveActivityCoordinator` performs them.
///
/// - Start once when recording starts (ending activities a crashed session left).
/// - One update per new final segment; none for interim text.
/// - One update each on pause, resume and stop, and when the language becomes known.
/// - An update whose content state equals the last one is skipped.
/// - End with a dismissal policy.
/// - Every action carries a timestamp, and no timestamp is older than one already sent.
/// - Near Apple's 8-hour limit, replace the activity with a fresh one with the same timer reference.
///
/// ```swift
/// var policy = LiveActivityUpdatePolicy.standard
/// let actions = policy.recordingStarted(attributes: attributes, language: "en-US", existing: [], now: t0)
/// // [.request(...)]; perform it, then:
/// policy.activityRequested(id: "A1")
/// policy.paused(now: t0 + 90)   // [.update(activityID: "A1", content: paused "1:30", ...)]
/// ```
public struct LiveActivityUpdatePolicy: Sendable, Equatable {
    /// The numbers the policy works with.
    public struct Configuration: Sendable, Equatable {
        /// Characters (grapheme clusters) of transcript in the content state.
        public var transcriptCharacterLimit: Int
        /// The size limit of content state plus attributes.
        public var budget: ActivityPayloadBudget
        /// Seconds after an update at which the activity counts as stale while recording or
        /// paused; nil for no stale date. `clockTicked` renews it while the app is alive, so it
        /// only passes when the app stopped (crashed or was killed).
        public var staleAfterSeconds: TimeInterval?
        /// How long before the stale date `clockTicked` sends a fresh one.
        public var staleRefreshMarginSeconds: TimeInterval
        /// How long an activity may stay active (Apple: 8 hours).
        public var maximumActiveSeconds: TimeInterval
        /// How long before that limit the activity is replaced.
        public var renewalMarginSeconds: TimeInterval

        public init(
            transcriptCharacterLimit: Int = 700, budget: ActivityPayloadBudget = .standard,
            staleAfterSeconds: TimeInterval? = 1800, staleRefreshMarginSeconds: TimeInterval = 300,
            maximumActiveSeconds: TimeInterval = ActivityHousekeeping.maximumActiveSeconds,
            renewalMarginSeconds: TimeInterval = 300
        ) {
            self.transcriptCharacterLimit = transcriptCharacterLimit
            self.budget = budget
            self.staleAfterSeconds = staleAfterSeconds
            self.staleRefreshMarginSeconds = staleRefreshMarginSeconds
            self.maximumActiveSeconds = maximumActiveSeconds
            self.renewalMarginSeconds = renewalMarginSeconds
        }
    }

    private struct Session: Sendable, Equatable {
        var attributes: RecordingActivityAttributes
        var language: String
        var stopwatch = RecordingStopwatch()
        var status: RecordingActivityAttributes.ContentState.Status = .recording
        var transcript = ""
        var segmentCount = 0
        /// The activity showing this recording, once the driver reported its identifier.
        var activityID: String?
        /// When the current activity was requested or adopted.
        var activityStartedAt: Date?
        var lastContent: RecordingActivityAttributes.ContentState?
        var staleDate: Date?
    }

    private enum State: Sendable, Equatable {
        case idle
        case active(Session)
        case ended(lastContent: RecordingActivityAttributes.ContentState?)
    }

    public var configuration: Configuration
    private var state: State = .idle
    private var lastTimestamp: Date?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// 700 characters of transcript, 4 KB, stale after 30 minutes of silence from the app,
    /// renewal 5 minutes before the 8-hour limit.
    public static var standard: LiveActivityUpdatePolicy { LiveActivityUpdatePolicy() }

    /// The content state of the latest action (sent, or produced while no activity exists).
    public var lastContentState: RecordingActivityAttributes.ContentState? {
        switch state {
        case .idle: nil
        case .active(let session): session.lastContent
        case .ended(let content): content
        }
    }

    /// The identifier of the activity showing the recording, if any.
    public var activityID: String? {
        if case .active(let session) = state { return session.activityID }
        return nil
    }

    // MARK: Events

    /// Recording started: end leftover activities, then request one (once per policy).
    /// - Parameters:
    ///   - attributes: the recording's attributes; the name is shortened if it alone breaks the budget.
    ///   - language: BCP 47 tag for the content state.
    ///   - existing: the activities that exist now (`ActivityClient.existingActivities()`).
    ///   - now: the current instant.
    public mutating func recordingStarted(
        attributes: RecordingActivityAttributes, language: String, existing: [ExistingActivity], now: Date
    ) -> [LiveActivityAction] {
        guard case .idle = state else { return [] }
        var session = Session(attributes: attributes, language: language)
        session.stopwatch.start(at: now)
        let plan = ActivityHousekeeping.plan(
            existing: existing, currentRecordingID: attributes.recordingID, now: now,
            maximumActiveSeconds: configuration.maximumActiveSeconds,
            renewalMarginSeconds: configuration.renewalMarginSeconds
        )
        let timestamp = nextTimestamp(now)
        var actions: [LiveActivityAction] = plan.activitiesToEnd.map {
            .end(activityID: $0, content: nil, dismissal: .immediate, timestamp: timestamp)
        }
        let fitted = configuration.budget.fit(attributes: attributes, content: makeContent(session, now: now))
        session.attributes = fitted.attributes
        session.lastContent = fitted.content
        session.staleDate = staleDate(for: fitted.content, timestamp: timestamp)
        if let kept = plan.activityToKeep, let old = existing.first(where: { $0.id == kept }) {
            session.activityID = kept
            session.activityStartedAt = old.startedAt
            actions.append(.update(activityID: kept, content: fitted.content, staleDate: session.staleDate, timestamp: timestamp))
        } else {
            session.activityStartedAt = now
            actions.append(.request(attributes: fitted.attributes, content: fitted.content, staleDate: session.staleDate, timestamp: timestamp))
        }
        state = .active(session)
        return actions
    }

    /// The driver's report that the last `.request` gave activity `id`.
    public mutating func activityRequested(id: String) {
        guard case .active(var session) = state else { return }
        session.activityID = id
        state = .active(session)
    }

    /// The driver's report that the last `.request` failed: updates are then produced for
    /// `lastContentState` but not sent, and no request is retried.
    public mutating func activityRequestFailed() {
        guard case .active(var session) = state else { return }
        session.activityID = nil
        state = .active(session)
    }

    /// The full list of final segments changed: one update if the shown text or count changed.
    public mutating func finalSegmentsChanged(_ finals: [TranscriptSegment], now: Date) -> [LiveActivityAction] {
        let limit = configuration.transcriptCharacterLimit
        return mutateSession(now: now) { session in
            session.transcript = PresentationText.transcriptSuffix(finals, maxCharacters: limit)
            session.segmentCount = finals.count
        }
    }

    /// The recording's language changed (`--language auto` identified the speech as "de" where
    /// the activity started with the fallback "en-US"): one update when it differs, so the
    /// activity never shows a language the recording is not saved with.
    public mutating func languageChanged(_ language: String, now: Date) -> [LiveActivityAction] {
        mutateSession(now: now) { session in session.language = language }
    }

    /// Interim (tentative) text changed: never an update, on purpose; the activity shows only
    /// final text, which keeps updates few (the system rate-limits them) and the text stable.
    public func interimChanged(_ text: String, now: Date) -> [LiveActivityAction] { [] }

    /// Recording paused: one update with the fixed elapsed text.
    public mutating func paused(now: Date) -> [LiveActivityAction] {
        mutateSession(now: now) { session in
            guard session.status == .recording else { return }
            session.stopwatch.pause(at: now)
            session.status = .paused
        }
    }

    /// Recording resumed: one update with a timer reference that excludes the pause.
    public mutating func resumed(now: Date) -> [LiveActivityAction] {
        mutateSession(now: now) { session in
            guard session.status == .paused else { return }
            session.stopwatch.resume(at: now)
            session.status = .recording
        }
    }

    /// Recording stopped: one update with the final elapsed text and no stale date.
    public mutating func stopped(now: Date) -> [LiveActivityAction] {
        mutateSession(now: now) { session in
            guard session.status != .stopped else { return }
            session.stopwatch.stop(at: now)
            session.status = .stopped
        }
    }

    /// Ends the activity with its stopped content state and `dismissal`; later events do nothing.
    public mutating func end(dismissal: ActivityDismissalPolicy, now: Date) -> [LiveActivityAction] {
        guard case .active(var session) = state else { return [] }
        if session.status != .stopped {
            session.stopwatch.stop(at: now)
            session.status = .stopped
        }
        let content = fittedContent(session, now: now)
        state = .ended(lastContent: content)
        guard let id = session.activityID else { return [] }
        return [.end(activityID: id, content: content, dismissal: dismissal, timestamp: nextTimestamp(now))]
    }

    /// Time passed with no event: replace an activity near the 8-hour limit, and push the stale
    /// date forward when it is within `staleRefreshMarginSeconds`. Cheap to call every second.
    public mutating func clockTicked(now: Date) -> [LiveActivityAction] {
        guard case .active(var session) = state, let id = session.activityID else { return [] }
        if let renewal = renewal(&session, now: now) {
            state = .active(session)
            return renewal
        }
        guard let stale = session.staleDate, let content = session.lastContent,
              now >= stale.addingTimeInterval(-configuration.staleRefreshMarginSeconds) else { return [] }
        let timestamp = nextTimestamp(now)
        session.staleDate = staleDate(for: content, timestamp: timestamp)
        state = .active(session)
        return [.update(activityID: id, content: content, staleDate: session.staleDate, timestamp: timestamp)]
    }

    // MARK: Helpers

    private mutating func mutateSession(now: Date, _ change: (inout Session) -> Void) -> [LiveActivityAction] {
        guard case .active(var session) = state else { return [] }
        change(&session)
        var actions = renewal(&session, now: now) ?? []
        let content = fittedContent(session, now: now)
        if content != session.lastContent {
            session.lastContent = content
            let timestamp = nextTimestamp(now)
            session.staleDate = staleDate(for: content, timestamp: timestamp)
            if let id = session.activityID, actions.isEmpty {
                actions.append(.update(activityID: id, content: content, staleDate: session.staleDate, timestamp: timestamp))
            } else if case .request(let attributes, _, _, _)? = actions.last {
                actions[actions.count - 1] = .request(
                    attributes: attributes, content: content, staleDate: session.staleDate, timestamp: timestamp)
            }
        }
        state = .active(session)
        return actions
    }

    /// End-and-request when the current activity reached the renewal age; nil otherwise.
    private mutating func renewal(_ session: inout Session, now: Date) -> [LiveActivityAction]? {
        guard let id = session.activityID, let startedAt = session.activityStartedAt else { return nil }
        let plan = ActivityHousekeeping.plan(
            existing: [ExistingActivity(id: id, recordingID: session.attributes.recordingID, startedAt: startedAt)],
            currentRecordingID: session.attributes.recordingID, now: now,
            maximumActiveSeconds: configuration.maximumActiveSeconds,
            renewalMarginSeconds: configuration.renewalMarginSeconds
        )
        guard plan.requestNew else { return nil }
        let timestamp = nextTimestamp(now)
        let content = fittedContent(session, now: now)
        session.lastContent = content
        session.staleDate = staleDate(for: content, timestamp: timestamp)
        session.activityID = nil
        session.activityStartedAt = now
        return [
            .end(activityID: id, content: content, dismissal: .immediate, timestamp: timestamp),
            .request(attributes: session.attributes, content: content, staleDate: session.staleDate, timestamp: timestamp),
        ]
    }

    private func makeContent(_ session: Session, now: Date) -> RecordingActivityAttributes.ContentState {
        let elapsed = session.stopwatch.elapsed(at: now)
        return RecordingActivityAttributes.ContentState(
            status: session.status,
            timerReferenceDate: session.stopwatch.timerReferenceDate(at: now),
            elapsedSeconds: session.status == .recording ? nil : elapsed.rounded(.down),  // whole seconds, as the clock shows them
            transcript: session.transcript,
            language: session.language,
            segmentCount: session.segmentCount
        )
    }

    private func fittedContent(_ session: Session, now: Date) -> RecordingActivityAttributes.ContentState {
        configuration.budget.fit(attributes: session.attributes, content: makeContent(session, now: now)).content
    }

    private func staleDate(for content: RecordingActivityAttributes.ContentState, timestamp: Date) -> Date? {
        guard content.status != .stopped, let after = configuration.staleAfterSeconds else { return nil }
        return timestamp.addingTimeInterval(after)
    }

    /// `now`, or the last timestamp if the clock went back: never older than one already sent.
    private mutating func nextTimestamp(_ now: Date) -> Date {
        var timestamp = now
        if let last = lastTimestamp, !(now >= last) { timestamp = last }
        lastTimestamp = timestamp
        return timestamp
    }
}
