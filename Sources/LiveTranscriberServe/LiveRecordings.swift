import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberTerminal
import Synchronization

/// Follows the recordings in progress in a library, whoever started them, each folded into a core
/// `LiveRecordingView`:
///
/// - the page's own recorder (`WebRecorder`) hands its lines over in memory, through `feed()`: each
///   one reaches the view, and wakes every reader, as it is written, with no file between. Such a
///   recording ends when its recorder says so (`LiveRecordingFeed.end()`).
/// - a recording another process makes (`record` in a terminal) is read from the disk: every
///   `live/<draft id>/` folder whose draft a live process holds (its `lock` is flock'd), read line
///   by line as its files grow. The page's own recording has such a folder too (for other
///   programs); it is never read here.
///
/// One thread scans the folder every `interval` seconds while someone watches (a reader waits
/// with `waitForChange`, as the Live page's event stream always does, or read a `snapshot` in the
/// last `watchedSeconds`); with nobody watching it sleeps until a reader comes. A `snapshot` taken
/// after such a pause starts the disk's recordings afresh (what was followed is dropped, or a
/// recording that ended meanwhile would show a clock stopped at the pause's end) and scans first,
/// so it is never stale: recordings in progress are read from their start, and one that ended
/// meanwhile is not shown, as no one was there to see it end. A
/// recording that ends (its stream says saved or discarded; or its draft's lock is released and
/// `endGraceSeconds` pass with no such line; or, fed in memory, its recorder ends without such a
/// line) stays in the list as finished for `finishedSeconds`, so the page can say it was saved. A
/// folder left by a recorder that crashed (no lock held when first seen) is never shown.
final class LiveRecordings: Sendable {
    /// How often the folders are scanned while watched, in seconds: a line another process writes
    /// reaches the page within this (the live view's latency for `record` in a terminal,
    /// docs/serve.md; a line fed in memory reaches it at once).
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

    /// A recording this process makes, fed in memory (`feed()`).
    private struct Fed {
        var view: LiveRecordingView
        var finishedAt: Date?
    }

    private struct State {
        /// Read from `live/`, by draft id.
        var followed: [String: Followed] = [:]
        /// Fed in memory, by draft id; never read from `live/`.
        var fed: [String: Fed] = [:]
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
    /// Broadcast when the version moves or on `stop()`: wakes the readers in `waitForChange`.
    private let changed = NSCondition()
    /// Signalled when a reader comes while nobody watched, or on `stop()`: wakes the scanning thread.
    private let watcherCame = NSCondition()

    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// Starts scanning on a thread of its own, until `stop()`.
    func start() {
        state.withLock { $0.scanning = true }
        let thread = Thread { [self] in scanWhileWatched() }
        thread.name = "live recordings"
        thread.start()
    }

    /// The scanning thread: scans every `interval` while watched, sleeps until a reader comes otherwise.
    private func scanWhileWatched() {
        watcherCame.lock()
        defer { watcherCame.unlock() }
        while true {
            let now = Date()
            let (stopped, watched) = state.withLock { ($0.stopped, $0.isWatched(now: now)) }
            if stopped { return }
            if watched {
                watcherCame.unlock()
                scan(now: now)
                watcherCame.lock()
                // Another process appending a line or releasing its lock tells nobody: looked at again after `interval`.
                _ = watcherCame.wait(until: Date().addingTimeInterval(Self.interval))
            } else {
                watcherCame.wait()  // until `snapshot`, `waitForChange` or `stop()` signals
            }
        }
    }

    /// Stops scanning and wakes every waiting reader (`waitForChange` returns nil).
    func stop() {
        state.withLock { $0.stopped = true }
        broadcastChange()
        watcherCame.lock()
        watcherCame.signal()
        watcherCame.unlock()
    }

    /// Wakes every reader with a new version: something else the Live page shows has changed
    /// (the page's own recorder).
    func touch() {
        state.withLock { $0.version += 1 }
        broadcastChange()
    }

    /// A feed for one recording this process makes (the page's recorder, `Recorder(liveFeed:)`):
    /// its lines are folded into its view as they are given, each waking every reader, and its
    /// `live/` folder is then never read here.
    func feed() -> any LiveRecordingFeed { MemoryFeed(recordings: self) }

    private func broadcastChange() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Notes a reader (`note` sets when it read a snapshot, or counts it waiting), and wakes the
    /// scanning thread when nobody watched before it.
    private func noteReader(_ note: (inout State) -> Void) {
        let now = Date()
        let nobodyWatched = state.withLock { state -> Bool in
            let watched = state.isWatched(now: now)
            note(&state)
            return !watched
        }
        guard nobodyWatched else { return }
        watcherCame.lock()
        watcherCame.signal()
        watcherCame.unlock()
    }

    /// The first lines of a fed recording, given once its id is known (the lines before it were kept).
    fileprivate func fedOpened(id: String, lines: [(LiveLine, String)]) {
        state.withLock { state in
            var view = LiveRecordingView(id: id)
            for (kind, line) in lines { Self.fold(line, kind, into: &view) }
            state.fed[id] = Fed(view: view)
            state.version += 1
        }
        broadcastChange()
    }

    /// One more line of a fed recording.
    fileprivate func fed(id: String, _ kind: LiveLine, _ line: String) {
        let known = state.withLock { state -> Bool in
            guard var fed = state.fed[id], fed.finishedAt == nil else { return false }
            Self.fold(line, kind, into: &fed.view)
            state.fed[id] = fed
            state.version += 1
            return true
        }
        if known { broadcastChange() }
    }

    /// A fed recording has ended at `now`: finished, or interrupted when its stream did not say saved or discarded.
    fileprivate func fedEnded(id: String, now: Date) {
        let known = state.withLock { state -> Bool in
            guard var fed = state.fed[id], fed.finishedAt == nil else { return false }
            if !fed.view.isFinished { fed.view.recorderGone(at: now) }
            fed.finishedAt = now
            state.fed[id] = fed
            state.version += 1
            return true
        }
        if known { broadcastChange() }
    }

    /// The recordings followed now, newest first (ids begin with their start time), and the
    /// version of that list.
    func snapshot() -> (version: Int, views: [LiveRecordingView]) {
        let now = Date()
        // Nobody watched, so the scanner was idle: start the disk's recordings afresh and bring
        // the list up to date first (the fed ones are up to date: nothing was missed).
        let idle = state.withLock { state -> Bool in
            guard state.scanning, !state.isWatched(now: now) else { return false }
            if !state.followed.isEmpty {
                state.followed = [:]
                state.version += 1
            }
            return true
        }
        if idle { scan(now: now) }
        let answer = state.withLock { state in
            (state.version, (state.followed.values.map(\.view) + state.fed.values.map(\.view)).sorted { $0.id > $1.id })
        }
        noteReader { $0.lastWatched = now }
        return answer
    }

    /// Waits until the version is past `version` or `timeout` seconds pass.
    /// - Returns: the current version, or nil once stopped.
    func waitForChange(after version: Int, timeout: Double) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        noteReader { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1; $0.lastWatched = Date() } }
        changed.lock()
        defer { changed.unlock() }
        while true {
            let (current, stopped) = state.withLock { ($0.version, $0.stopped) }
            if stopped { return nil }
            if current != version || !changed.wait(until: deadline) { return current }
        }
    }

    /// One scan of `live/`: new folders, new lines, ended recordings; and fed recordings that
    /// finished more than `finishedSeconds` ago leave the list. Public for tests.
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
                    // Left by a crash, already gone, or this process's own (fed in memory).
                    guard recording, names.contains(name), state.fed[name] == nil else { continue }
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
            for (id, fed) in state.fed {
                if let finishedAt = fed.finishedAt, now.timeIntervalSince(finishedAt) > Self.finishedSeconds {
                    state.fed[id] = nil
                    didChange = true
                }
            }
            if didChange { state.version += 1 }
            return didChange
        }
        if didChange { broadcastChange() }
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
                Self.fold(line, name == LibraryLayout.liveEvents ? .event : .activity, into: &followed.view)
            }
            followed.partial[name] = buffer
        }
        return any
    }

    /// Folds one line into `view`, the same whether it was read from `live/` or fed in memory;
    /// a line that does not decode is skipped.
    fileprivate static func fold(_ line: String, _ kind: LiveLine, into view: inout LiveRecordingView) {
        switch kind {
        case .event:
            if let event = try? JSONDecoder().decode(RecordingStreamEvent.self, from: Data(line.utf8)) { view.apply(event) }
        case .activity:
            if let feed = ActivityFeedLine.decode(line) { view.applyActivity(attributes: feed.attributes, content: feed.contentState) }
        }
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

/// Which of a recording's two line streams a line is from.
private enum LiveLine {
    /// `events.jsonl`: the live event stream.
    case event
    /// `activity.jsonl`: the Live Activity feed.
    case activity
}

/// One recording's live lines handed to `LiveRecordings` in memory. Lines given before `open(id:)`
/// are kept and folded with it, as `LiveFolder` keeps them until its folder exists.
private final class MemoryFeed: LiveRecordingFeed {
    private struct State {
        var id: String?
        var pending: [(LiveLine, String)] = []
        var ended = false
    }

    private let recordings: LiveRecordings
    /// Held while a line is handed on, so lines reach the view in the order they were given.
    private let state = Mutex(State())

    init(recordings: LiveRecordings) {
        self.recordings = recordings
    }

    func event(_ line: String) { give(.event, line) }

    func activity(_ line: String) { give(.activity, line) }

    func open(id: String) {
        state.withLock { state in
            guard state.id == nil, !state.ended else { return }
            state.id = id
            recordings.fedOpened(id: id, lines: state.pending)
            state.pending = []
        }
    }

    func end() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            if let id = state.id { recordings.fedEnded(id: id, now: Date()) }
        }
    }

    private func give(_ kind: LiveLine, _ line: String) {
        state.withLock { state in
            guard !state.ended else { return }
            if let id = state.id { recordings.fed(id: id, kind, line) } else { state.pending.append((kind, line)) }
        }
    }
}
