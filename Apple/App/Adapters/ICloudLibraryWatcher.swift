import Foundation
import LiveTranscriberCore
import LiveTranscriberStore
import Synchronization

/// Watches a library's recordings in iCloud Drive with `NSMetadataQuery` and keeps the index in
/// step: every report becomes the core's `UbiquitousItem`s, `LibrarySyncPolicy` decides (debounce,
/// our own writes, downloads to ask for, conflicts), and this class only carries out its actions:
///
/// - `.download`: `FileManager.startDownloadingUbiquitousItem(at:)`;
/// - `.resolveConflicts`: under a coordinated write, the other versions are marked resolved and
///   removed (`NSFileVersion`), so the current version (iCloud's choice, the newest) stays;
/// - `.reindex` / `.rebuild`: `LibraryStore.reindex(ids:)` / `reindex()` on its own serial queue
///   with its own store (one store per thread), then `onRefreshed` on the main actor, where the
///   screens read the index again.
///
/// The query runs on the main thread (it needs a run loop) and is started and stopped with the
/// library (Settings' iCloud switch).
@MainActor
final class ICloudLibraryWatcher: NSObject {
    /// The shared library folder: the ubiquity container's `Documents/Library`, parent of `recordings/`.
    let root: URL
    /// Called on the main actor after each refresh of the index.
    var onRefreshed: (() -> Void)?

    private let query = NSMetadataQuery()
    private let policy: LibrarySyncPolicy
    private let clock: any WallClock
    private let refresher: IndexRefresher
    private var deadline: Task<Void, Never>?

    /// - Parameter openStore: opens this library's store for the refresher's own queue.
    init(root: URL, clock: any WallClock, openStore: @escaping @Sendable () throws -> LibraryStore) {
        self.root = root.resolvingSymlinksInPath()
        self.clock = clock
        policy = LibrarySyncPolicy(clock: clock)
        refresher = IndexRefresher(openStore: openStore)
        super.init()
        query.searchScopes = [NSMetadataQueryUbiquitousDocumentsScope]
        // Every item of the container's documents; those outside `root` are dropped in `item(at:)`,
        // which compares resolved paths (the query may report /private/var where the container
        // URL says /var).
        query.predicate = NSPredicate(format: "%K LIKE '*'", NSMetadataItemFSNameKey)
        NotificationCenter.default.addObserver(self, selector: #selector(gathered(_:)), name: .NSMetadataQueryDidFinishGathering, object: query)
        NotificationCenter.default.addObserver(self, selector: #selector(updated(_:)), name: .NSMetadataQueryDidUpdate, object: query)
    }

    func start() {
        guard !query.isStarted else { return }
        query.start()
    }

    func stop() {
        query.stop()
        deadline?.cancel()
        NotificationCenter.default.removeObserver(self)
    }

    /// Our own coordinated write of `url` (from `NSFileCoordinatorFiles`).
    func noteOwnWrite(_ url: URL) {
        if let id = item(at: url)?.recordingID { policy.noteOwnWrite(recordingID: id) }
    }

    // MARK: Reports

    @objc private func gathered(_ notification: Notification) {
        query.disableUpdates()
        let items = (0..<query.resultCount).compactMap { query.result(at: $0) as? NSMetadataItem }.compactMap(item(from:))
        query.enableUpdates()
        perform(policy.gathered(items))
    }

    @objc private func updated(_ notification: Notification) {
        query.disableUpdates()
        func items(_ key: String) -> [UbiquitousItem] {
            ((notification.userInfo?[key] as? [NSMetadataItem]) ?? []).compactMap(item(from:))
        }
        let actions = policy.updated(added: items(NSMetadataQueryUpdateAddedItemsKey), changed: items(NSMetadataQueryUpdateChangedItemsKey),
                                     removed: items(NSMetadataQueryUpdateRemovedItemsKey))
        query.enableUpdates()
        perform(actions)
    }

    // MARK: Actions

    private func perform(_ actions: [LibrarySyncAction]) {
        for action in actions {
            switch action {
            case .download(let paths):
                for path in paths { try? FileManager.default.startDownloadingUbiquitousItem(at: root.appending(path: path)) }
            case .resolveConflicts(let path):
                Self.keepCurrentVersion(of: root.appending(path: path))
            case .reindex, .rebuild:
                refresh(action)
            }
        }
        scheduleDeadline()
    }

    private func scheduleDeadline() {
        deadline?.cancel()
        guard let next = policy.nextDeadline else { return }
        let wait = max(0, next.timeIntervalSince(clock.now()))
        deadline = Task { [weak self] in
            try? await Task.sleep(for: .seconds(wait))
            guard !Task.isCancelled, let self else { return }
            if let action = self.policy.due() { self.refresh(action) }
            self.scheduleDeadline()
        }
    }

    private func refresh(_ action: LibrarySyncAction) {
        refresher.run(action) { [weak self] in
            Task { @MainActor in self?.onRefreshed?() }
        }
    }

    /// Keeps the current version of a file written on two devices and removes the others.
    private static func keepCurrentVersion(of url: URL) {
        var error: NSError?
        NSFileCoordinator(filePresenter: nil).coordinate(writingItemAt: url, options: .forReplacing, error: &error) { url in
            for version in NSFileVersion.unresolvedConflictVersionsOfItem(at: url) ?? [] { version.isResolved = true }
            try? NSFileVersion.removeOtherVersionsOfItem(at: url)
        }
    }

    // MARK: Items

    private func item(from metadata: NSMetadataItem) -> UbiquitousItem? {
        guard let url = metadata.value(forAttribute: NSMetadataItemURLKey) as? URL, var item = item(at: url) else { return nil }
        let status = metadata.value(forAttribute: NSMetadataUbiquitousItemDownloadingStatusKey) as? String
        item.isDownloaded = status == nil || status == NSMetadataUbiquitousItemDownloadingStatusCurrent
        item.hasUnresolvedConflicts = (metadata.value(forAttribute: NSMetadataUbiquitousItemHasUnresolvedConflictsKey) as? Bool) ?? false
        item.contentChanged = metadata.value(forAttribute: NSMetadataItemFSContentChangeDateKey) as? Date
        return item
    }

    /// The item at `url`, its path relative to `root`; nil outside it.
    private func item(at url: URL) -> UbiquitousItem? {
        let path = url.resolvingSymlinksInPath().path
        guard path.hasPrefix(root.path + "/") else { return nil }
        return UbiquitousItem(path: String(path.dropFirst(root.path.count + 1)))
    }
}

/// Runs the index refreshes on one serial queue with a store of its own (the store is used from
/// one thread at a time, under the refresher's lock; the library's write lock orders it with the
/// screens' store).
private final class IndexRefresher: Sendable {
    private let queue = DispatchQueue(label: "app.livetranscriber.icloud-refresh", qos: .utility)
    private let openStore: @Sendable () throws -> LibraryStore
    /// Opened on the first refresh, then kept.
    private let store = Mutex<LibraryStore?>(nil)

    init(openStore: @escaping @Sendable () throws -> LibraryStore) {
        self.openStore = openStore
    }

    func run(_ action: LibrarySyncAction, then done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            do {
                let refreshed = try store.withLock { kept in
                    let store = try kept ?? openStore()
                    kept = store
                    switch action {
                    case .reindex(let ids): try store.reindex(ids: ids)
                    case .rebuild: try store.reindex()
                    case .download, .resolveConflicts: return false
                    }
                    return true
                }
                if refreshed { done() }
            } catch {
                // The next report or launch tries again; the index is a cache of the folders.
            }
        }
    }
}
