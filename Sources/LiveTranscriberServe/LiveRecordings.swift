import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberTerminal
import Synchronization

/// Follows the recordings in progress in a library, whoever started them (`record` in a terminal,
/// the page): every `live/<draft id>/` folder whose draft a live process holds (its `lock` is
/// flock'd), read line by line as its files grow, each folded into a core `LiveRecordingView`.
///
/// One thread scans the folder every `interval` seconds while someone watches (a reader waits
/// with `waitForChange`, as the Live page's event stream always does, or read a `snapshot` in the
/// last `watchedSeconds`); with nobody watching it only checks that, 20 times a second, with no
/// system call. A `snapshot` taken after such a pause starts afresh (what was followed is
/// dropped, or a recording that ended meanwhile would show a clock stopped at the pause's end)
/// and scans first, so it is never stale: recordings in progress are read from their start, and
/// one that ended meanwhile is not shown, as no one was there to see it end. A
/// recording that ends (its stream says saved or discarded; or its draft's lock is released and
/// `endGraceSeconds` pass with no such line) stays in the list as finished for
/// `finishedSeconds`, so the page can say it was saved. A folder left
/// by a recorder that crashed (no lock held when first seen) is never shown.
final class LiveRecordings: Sendable {
    /// How often the folders are scanned while watched, in seconds: a line a recorder writes
    /// reaches the page within this (the live view's latency, docs/serve.md).
    static let interval = 0.05
    /// How long after the last `snapshot` (with no reader waiting) the folders are still scanned,
    /// in seconds: above the gap between two reads of a client polling `GET /api/live` each second.
    static let watchedSeconds = 2.0
    /// How long a finished recording stays in the list, in seconds.
    static let finishedSeconds = 30.0
    /// How long a recording is still read after its draft's lock is released without the stream
    /// saying saved or discarded, in seconds: a recorder releases the lock as the store saves the
    /// draft and writes "saved" just after (`RecordingEngine` says saved once it is), so a scan can
    /// fall between the two. A recorder that crashed is shown interrupted once this has passed.
    static let endGraceSeconds = 2.0

    private struct Followed {
        var view: LiveRecordingView
        /// The folder's two files, kept open from the first read: a recorder removes its folder as
        /// it ends, and the lines it wrote last (often every final, when they are decoded after the
        /// audio ends) are still read through these after the removal.
        var handles: [String: FileHandle] = [:]
        var offsets: [String: UInt64] = [:]
        /// The end of a file not yet ended by a newline, by file name.
        var partial: [String: Data] = [:]
        var finishedAt: Date?
        /// When a scan first found the draft's lock released.
        var lockReleasedAt: Date?
    }

    private struct State {
        var followed: [String: Followed] = [:]
        var version = 0
        var stopped = false
        /// The scanning thread runs (`start()`); tests without it call `scan(now:)` themselves.
        var scanning = false
        /// Readers in `waitForChange` now.
        var waiting = 0
        /// When a reader last read a snapshot or stopped waiting.
        var lastWatched = Date.distantPast

        func isWatched(now: Date) -> Bool {
            waiting > 0 || now.timeIntervalSince(lastWatched) < LiveRecordings.watchedSeconds
        }
    }

    private let dataDirectory: URL
    private let state = Mutex(State())
    private let changed = NSCondition()

    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// Starts scanning on a thread of its own, until `stop()`.
    func start() {
        state.withLock { $0.scanning = true }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                let now = Date()
                if state.withLock({ $0.isWatched(now: now) }) { scan(now: now) }
                Thread.sleep(forTimeInterval: Self.interval)
            }
        }
        thread.name = "live recordings"
        thread.start()
    }

    /// Stops scanning and wakes every waiting reader (`waitForChange` returns nil).
    func stop() {
        state.withLock { $0.stopped = true }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Wakes every reader with a new version: something else the Live page shows has changed
    /// (the page's own recorder).
    func touch() {
        state.withLock { $0.version += 1 }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// The recordings followed now, newest first (ids begin with their start time), and the
    /// version of that list.
    func snapshot() -> (version: Int, views: [LiveRecordingView]) {
        let now = Date()
        // Nobody watched, so the scanner was idle: start afresh and bring the list up to date first.
        let idle = state.withLock { state -> Bool in
            guard state.scanning, !state.isWatched(now: now) else { return false }
            if !state.followed.isEmpty {
                state.followed = [:]
                state.version += 1
            }
            return true
        }
        if idle { scan(now: now) }
        return state.withLock { state in
            state.lastWatched = now
            return (state.version, state.followed.values.map(\.view).sorted { $0.id > $1.id })
        }
    }

    /// Waits until the version is past `version` or `timeout` seconds pass.
    /// - Returns: the current version, or nil once stopped.
    func waitForChange(after version: Int, timeout: Double) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1; $0.lastWatched = Date() } }
        changed.lock()
        defer { changed.unlock() }
        while true {
            let (current, stopped) = state.withLock { ($0.version, $0.stopped) }
            if stopped { return nil }
            if current != version || !changed.wait(until: deadline) { return current }
        }
    }

    /// One scan of `live/`: new folders, new lines, ended recordings. Public for tests.
    func scan(now: Date) {
        let live = dataDirectory.appendingPathComponent(LibraryLayout.live, isDirectory: true)
        let names = Set(((try? FileManager.default.contentsOfDirectory(atPath: live.path)) ?? []).filter(RecordingID.isSafe))
        let drafts = dataDirectory.appendingPathComponent(LibraryLayout.drafts, isDirectory: true)
        let didChange = state.withLock { state -> Bool in
            var didChange = false
            for name in names.union(state.followed.keys) {
                let folder = live.appendingPathComponent(name, isDirectory: true)
                let recording = Self.isBeingRecorded(drafts.appendingPathComponent(name).appendingPathComponent(LibraryLayout.draftLock))
                if state.followed[name] == nil {
                    guard recording, names.contains(name) else { continue }  // left by a crash, or already gone
                    state.followed[name] = Followed(view: LiveRecordingView(id: name))
                    didChange = true
                }
                guard var followed = state.followed[name] else { continue }
                if followed.finishedAt == nil {
                    if read(folder, into: &followed) { didChange = true }
                    if !recording, followed.lockReleasedAt == nil { followed.lockReleasedAt = now }
                    let gone = followed.lockReleasedAt.flatMap { now.timeIntervalSince($0) >= Self.endGraceSeconds ? $0 : nil }
                    if followed.view.isFinished || gone != nil {
                        if let gone, !followed.view.isFinished { followed.view.recorderGone(at: gone) }
                        followed.finishedAt = now
                        for handle in followed.handles.values { try? handle.close() }
                        followed.handles = [:]
                        didChange = true
                    }
                }
                if let finishedAt = followed.finishedAt, now.timeIntervalSince(finishedAt) > Self.finishedSeconds {
                    state.followed[name] = nil
                    didChange = true
                } else {
                    state.followed[name] = followed
                }
            }
            if didChange { state.version += 1 }
            return didChange
        }
        if didChange {
            changed.lock()
            changed.broadcast()
            changed.unlock()
        }
    }

    /// Reads what was added to the folder's two files since the last read. True when any line was.
    private func read(_ folder: URL, into followed: inout Followed) -> Bool {
        var any = false
        for name in [LibraryLayout.liveEvents, LibraryLayout.liveActivity] {
            guard let handle = followed.handles[name] ?? FileHandle(forReadingAtPath: folder.appendingPathComponent(name).path)
            else { continue }
            followed.handles[name] = handle
            let offset = followed.offsets[name] ?? 0
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { continue }
            followed.offsets[name] = offset + UInt64(data.count)
            var buffer = (followed.partial[name] ?? Data()) + data
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                any = true
                if name == LibraryLayout.liveEvents {
                    if let event = try? JSONDecoder().decode(RecordingStreamEvent.self, from: Data(line.utf8)) { followed.view.apply(event) }
                } else if let feed = ActivityFeedLine.decode(line) {
                    followed.view.applyActivity(attributes: feed.attributes, content: feed.contentState)
                }
            }
            followed.partial[name] = buffer
        }
        return any
    }

    /// True when a process holds the draft's lock (it is recording): a shared lock cannot be had.
    /// The probe never creates the file and takes nothing a recorder waits for (a recorder holds
    /// its lock from before its live folder exists).
    static func isBeingRecorded(_ lockFile: URL) -> Bool {
        let descriptor = open(lockFile.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
