import Foundation

/// Decides which Live Activities to end and whether to request a new one: the pure rules for
/// activities left by a crashed session and for recordings longer than an activity may live.
///
/// Apple: a Live Activity stays active for at most 8 hours (then the system ends it and it may
/// remain on the Lock Screen for up to 4 more). A longer recording needs a fresh activity, which
/// carries the same timer reference date so the clock runs on without a jump.
public enum ActivityHousekeeping {
    /// Apple's limit on how long an activity stays active: 8 hours, in seconds.
    public static let maximumActiveSeconds: TimeInterval = 8 * 3600

    /// What to do.
    public struct Plan: Sendable, Equatable {
        /// Identifiers of the activities to end, in the order given.
        public var activitiesToEnd: [String]
        /// The activity to keep showing the current recording, if one is still good.
        public var activityToKeep: String?
        /// True when the current recording needs a new activity.
        public var requestNew: Bool

        public init(activitiesToEnd: [String], activityToKeep: String?, requestNew: Bool) {
            self.activitiesToEnd = activitiesToEnd
            self.activityToKeep = activityToKeep
            self.requestNew = requestNew
        }
    }

    /// The plan for `existing` activities given the recording now in progress.
    ///
    /// - Every activity for another recording (or any, when nothing is recording) was left by a
    ///   session that ended without ending it: end it.
    /// - Of the activities for the current recording, keep the newest unless it has been active
    ///   for `maximumActiveSeconds - renewalMarginSeconds` or more; end the rest.
    /// - Request a new activity when a recording is in progress and none is kept.
    /// - Parameters:
    ///   - existing: the activities that exist now.
    ///   - currentRecordingID: the recording in progress, or nil.
    ///   - now: the current instant.
    ///   - renewalMarginSeconds: how long before the 8-hour limit to replace an activity, so the
    ///     system never ends it first.
    public static func plan(
        existing: [ExistingActivity], currentRecordingID: String?, now: Date,
        maximumActiveSeconds: TimeInterval = maximumActiveSeconds, renewalMarginSeconds: TimeInterval = 300
    ) -> Plan {
        let renewAge = max(0, maximumActiveSeconds - renewalMarginSeconds)
        let current = existing.filter { $0.recordingID == currentRecordingID && currentRecordingID != nil }
        let newest = current.max { $0.startedAt < $1.startedAt }
        var keep: String?
        if let newest, now.timeIntervalSince(newest.startedAt) < renewAge {
            keep = newest.id
        }
        let toEnd = existing.map(\.id).filter { $0 != keep }
        return Plan(activitiesToEnd: toEnd, activityToKeep: keep, requestNew: currentRecordingID != nil && keep == nil)
    }
}
