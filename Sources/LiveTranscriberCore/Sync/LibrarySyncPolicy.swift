import Foundation

/// What the app does about what iCloud Drive reports of a library kept in the ubiquity container.
public enum LibrarySyncAction: Sendable, Equatable {
    /// Ask iCloud to download these files (`FileManager.startDownloadingUbiquitousItem(at:)`),
    /// paths relative to the library folder. The recordings they belong to are refreshed once
    /// they arrive.
    case download([String])
    /// Choose between the versions of a file written on two devices: the current version (the
    /// one iCloud shows, the newest) is kept, the others are marked resolved and removed
    /// (`NSFileVersion`). The recording is refreshed afterwards.
    case resolveConflicts(String)
    /// Bring the index in step with these recordings' folders (read again; a folder that is gone
    /// leaves the index).
    case reindex(Set<String>)
    /// Rebuild the index from every folder (the first report after launch, or too many
    /// recordings changed at once to take them one by one).
    case rebuild
}

/// When a library kept in iCloud Drive refreshes its index, from the metadata query's reports.
///
/// Files are the truth and the index a cache (docs/library.md), so what arrives from another
/// device only has to be read into the index. The rules:
///
/// - Only saved recordings count: "recordings/<id>/…". Drafts, trash and the index are ignored.
/// - Debounce: a refresh waits until reports have been quiet for `quietSeconds`, but never more
///   than `maximumDelaySeconds` after the first change it holds, so a long sync is shown in steps.
/// - Our own writes are not news: a change to a recording this app wrote less than
///   `ownWriteSeconds` ago (`noteOwnWrite`) is ignored, and a change whose content date is the one
///   already seen is upload or download progress, also ignored.
/// - Not downloaded yet (a ".name.icloud" placeholder, or an item not current): a download is
///   asked for once, and the recording is skipped until every file of it that was waiting has
///   arrived; then it is refreshed. A file that disappears stops the wait.
/// - Conflicts: resolution is asked for once per report that shows them, and the recording is
///   refreshed when the resolved file is reported again.
/// - The first report (the query's initial gathering) rebuilds the index once, for whatever
///   changed while the app was not running; more than `rebuildThreshold` recordings pending at
///   once also rebuild rather than reindex one by one.
///
/// Call `gathered`/`updated` with each report, and `due()` whenever `nextDeadline` passes.
public final class LibrarySyncPolicy {
    public let quietSeconds: Double
    public let maximumDelaySeconds: Double
    public let ownWriteSeconds: Double
    public let rebuildThreshold: Int
    private let clock: any WallClock

    /// Recordings to refresh, with the first and last change held.
    private var pending: Set<String> = []
    private var rebuildPending = false
    private var firstChange: Date?
    private var lastChange: Date?
    /// Placeholder or not-current files asked for, by logical path, with their recording.
    private var awaited: [String: String] = [:]
    /// The content date last seen per logical path.
    private var seenContent: [String: Date] = [:]
    /// Our own writes: recording id → when.
    private var ownWrites: [String: Date] = [:]

    public init(clock: any WallClock, quietSeconds: Double = 2, maximumDelaySeconds: Double = 10,
                ownWriteSeconds: Double = 5, rebuildThreshold: Int = 200) {
        self.clock = clock
        self.quietSeconds = quietSeconds
        self.maximumDelaySeconds = maximumDelaySeconds
        self.ownWriteSeconds = ownWriteSeconds
        self.rebuildThreshold = rebuildThreshold
    }

    /// Notes that this app is writing recording `id`'s folder now (a save, rename, retag,
    /// delete); the query's reports of it in the next `ownWriteSeconds` are ignored.
    public func noteOwnWrite(recordingID id: String) {
        ownWrites[id] = clock.now()
    }

    /// The query's initial gathering: every item there is.
    /// - Returns: the actions to take now (downloads, conflict resolutions); the rebuild comes from `due()`.
    public func gathered(_ items: [UbiquitousItem]) -> [LibrarySyncAction] {
        let actions = observe(items.map { ($0, false) })
        rebuildPending = true
        markChanged()
        return actions
    }

    /// A later report: files added, changed and removed since the last one.
    /// - Returns: the actions to take now; refreshes come from `due()`.
    public func updated(added: [UbiquitousItem], changed: [UbiquitousItem], removed: [UbiquitousItem]) -> [LibrarySyncAction] {
        let actions = observe(added.map { ($0, false) } + changed.map { ($0, true) })
        for item in removed {
            guard let id = item.recordingID else { continue }
            let path = item.logicalPath
            seenContent[path] = nil
            let wasAwaited = awaited.removeValue(forKey: path) != nil
            if isOwnWrite(id) && !wasAwaited { continue }
            hold(id)
        }
        return actions
    }

    /// When `due()` should next be called; nil when nothing is held but recordings still
    /// downloading (their arrival sets a deadline again).
    public var nextDeadline: Date? {
        guard let firstChange, let lastChange, rebuildPending || !pending.subtracting(awaited.values).isEmpty else { return nil }
        return min(lastChange.addingTimeInterval(quietSeconds), firstChange.addingTimeInterval(maximumDelaySeconds))
    }

    /// The refresh to run now, if one is due: a rebuild, or a reindex of the recordings held
    /// (those still waiting for a download stay held). Clears what it returns.
    public func due() -> LibrarySyncAction? {
        guard let deadline = nextDeadline, clock.now() >= deadline else { return nil }
        let waiting = Set(awaited.values)
        let ready = pending.subtracting(waiting)
        defer {
            pending = pending.intersection(waiting)  // still downloading: held, without a deadline
            rebuildPending = false
            firstChange = nil
            lastChange = nil
        }
        if rebuildPending || ready.count > rebuildThreshold { return .rebuild }
        return ready.isEmpty ? nil : .reindex(ready)
    }

    /// True while recording `id` has files asked for and not arrived.
    public func isWaitingForDownload(_ id: String) -> Bool {
        awaited.values.contains(id)
    }

    // MARK: Rules

    private func observe(_ reports: [(item: UbiquitousItem, isChange: Bool)]) -> [LibrarySyncAction] {
        var downloads: [String] = []
        var actions: [LibrarySyncAction] = []
        for (item, isChange) in reports {
            guard let id = item.recordingID else { continue }
            let path = item.logicalPath
            if item.isPlaceholder || !item.isDownloaded {
                if awaited[path] == nil {
                    awaited[path] = id
                    downloads.append(path)
                }
                pending.insert(id)  // refreshed once it arrives; no deadline until then
                continue
            }
            let arrived = awaited.removeValue(forKey: path) != nil
            if item.hasUnresolvedConflicts {
                actions.append(.resolveConflicts(path))
                continue  // the resolved file is reported again, and refreshed then
            }
            let previous = seenContent[path]
            if let date = item.contentChanged { seenContent[path] = date }
            if arrived { hold(id); continue }
            if isChange, let previous, previous == item.contentChanged { continue }  // progress only
            if isOwnWrite(id) { continue }
            hold(id)
        }
        return (downloads.isEmpty ? [] : [.download(downloads)]) + actions
    }

    private func isOwnWrite(_ id: String) -> Bool {
        guard let written = ownWrites[id] else { return false }
        if clock.now().timeIntervalSince(written) < ownWriteSeconds { return true }
        ownWrites[id] = nil
        return false
    }

    private func hold(_ id: String) {
        pending.insert(id)
        markChanged()
    }

    private func markChanged() {
        let now = clock.now()
        if firstChange == nil { firstChange = now }
        lastChange = now
    }
}
