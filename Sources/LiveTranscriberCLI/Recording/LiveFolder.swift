import Foundation
import LiveTranscriberCore
import Synchronization

/// Where the lines of a recording in progress go as they happen, for whoever follows it: the
/// library's `live/<draft id>/` folder (`LiveFolder`, read by `serve` in another process) and, for a
/// recording `serve`'s page started, that server's own Live view, in memory. Each line is one JSON
/// document without its newline: an event of the live stream (`RecordingStreamEvent`,
/// docs/live-events.md) or a line of the Live Activity feed (`ActivityFeedEncoder`). Calls may come
/// from several threads (the recorder's loop, the Live Activity's coordinator).
package protocol LiveRecordingFeed: Sendable {
    /// One line of the live event stream.
    func event(_ line: String)
    /// One line of the Live Activity feed.
    func activity(_ line: String)
    /// The draft's id is known: lines given before it are kept and handed on with it.
    func open(id: String)
    /// The recording has ended (saved, discarded, or failed): no line comes after this.
    func end()
}

/// The library's `live/<draft id>/` folder of a recording `record` is making: its live event
/// stream (`events.jsonl`) and Live Activity feed (`activity.jsonl`), line by line as they happen,
/// so `serve`'s Live page (another process) can follow it (docs/serve.md, "Live").
///
/// Lines written before the draft exists (the first phases, the activity's request) are kept and
/// written when `open(id:)` creates the folder. The folder is removed by `remove()` when the
/// recording ends. Writing it is a courtesy to watchers: a failure never touches the recording
/// (the journal is what keeps the finals), it only stops the folder being written.
final class LiveFolder: LiveRecordingFeed {
    private struct State {
        var pending: [(file: String, line: String)] = []
        var handles: [String: FileHandle] = [:]
        var folder: URL?
        var failed = false
    }

    private let dataDirectory: URL
    private let state = Mutex(State())

    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// The folder of draft `id` in the library in `dataDirectory`.
    static func folder(of id: String, in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent(LibraryLayout.live, isDirectory: true).appendingPathComponent(id, isDirectory: true)
    }

    /// Appends one line of the live event stream.
    func event(_ line: String) { write(line, to: LibraryLayout.liveEvents) }

    /// Appends one line of the Live Activity feed.
    func activity(_ line: String) { write(line, to: LibraryLayout.liveActivity) }

    /// Creates the folder for draft `id` and writes the lines kept so far.
    func open(id: String) {
        guard RecordingID.isSafe(id) else { return }
        state.withLock { state in
            let folder = Self.folder(of: id, in: dataDirectory)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for name in [LibraryLayout.liveEvents, LibraryLayout.liveActivity] {
                    let file = folder.appendingPathComponent(name)
                    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
                    }
                    state.handles[name] = try FileHandle(forWritingTo: file)
                }
                state.folder = folder
                let pending = state.pending
                state.pending = []
                for (name, line) in pending { Self.append(line, to: name, in: &state) }
            } catch {
                state.failed = true  // watchers see no folder; the recording goes on
                state.pending = []
            }
        }
    }

    /// The recording has ended: `remove()`.
    func end() { remove() }

    /// Closes the files and removes the folder (and `live/` when no other is in it): the recording has ended.
    func remove() {
        state.withLock { state in
            for handle in state.handles.values { try? handle.close() }
            state.handles = [:]
            if let folder = state.folder {
                try? FileManager.default.removeItem(at: folder)
                // `live/` itself goes with its last recording (rmdir leaves it when another is there).
                rmdir(folder.deletingLastPathComponent().path)
            }
            state.folder = nil
            state.failed = true
        }
    }

    private func write(_ line: String, to name: String) {
        state.withLock { state in
            if state.failed { return }
            if state.folder == nil {
                state.pending.append((name, line))
            } else {
                Self.append(line, to: name, in: &state)
            }
        }
    }

    /// One line in one write, so a reader never sees half of it unless it reads mid-write.
    private static func append(_ line: String, to name: String, in state: inout State) {
        guard let handle = state.handles[name] else { return }
        do {
            try handle.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            state.failed = true
        }
    }
}
