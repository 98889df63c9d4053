import Foundation
import LiveTranscriberCore

/// What opening a library would create in a data directory that holds none yet, noted by a
/// command that saves (`record`, `import`) before it opens the library, so that the command can
/// take it back when it ends with nothing in it.
///
/// A failing command changes nothing: a damaged model, a missing input file, audio too short to
/// keep or a discarded recording leave no empty library behind, not even the data directory
/// itself when the command created it. Only what was missing before is removed, folders only when
/// empty, and nothing at all when the library holds a recording, a draft or anything in its trash
/// (a save that failed keeps its draft), or when another process holds its write lock.
///
/// ```swift
/// let creation = LibraryCreation(directory: dataDirectory)
/// defer { creation.removeIfUnused() }   // after the store is released
/// let saved = try record(into: LibraryStore(directory: dataDirectory))
/// ```
public struct LibraryCreation: Sendable {
    /// The data directory.
    public let directory: URL
    /// The folders from the outermost one that did not exist down to `directory`, outermost first;
    /// empty when `directory` existed.
    let missingFolders: [URL]
    /// The library's own files and folders in `directory` that did not exist (`LibraryLayout`
    /// names, with the index's journal files); empty when a library exists there.
    let missingItems: [String]

    /// The files and folders a new library may hold, innermost last: SQLite's journal files go
    /// before the index, the folders after the files.
    static let items = [LibraryLayout.index + "-wal", LibraryLayout.index + "-shm", LibraryLayout.index + "-journal",
                        LibraryLayout.index, LibraryLayout.generation,
                        LibraryLayout.recordings, LibraryLayout.drafts, LibraryLayout.trash, LibraryLayout.writeLock]

    /// Notes what of a library is missing in `directory`: everything a command may create when no
    /// library exists there (`LibraryStore.exists(in:)` is false), else nothing.
    public init(directory: URL) {
        self.directory = directory
        // A library that cannot be looked into counts as there: opening it says why it cannot be read.
        guard (try? LibraryStore.exists(in: directory)) == false else {
            missingFolders = []
            missingItems = []
            return
        }
        var missing: [URL] = []
        var folder = directory.standardizedFileURL
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) {
            missing.insert(folder, at: 0)
            folder.deleteLastPathComponent()
        }
        missingFolders = missing
        missingItems = Self.items.filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    /// Removes what was missing when this value was made, if the library holds nothing now: its
    /// `recordings/` and `drafts/` empty, and its `trash/` too. Call it once no `LibraryStore` is
    /// open on the directory (the index's connection closed). Failures leave things as they are:
    /// what remains is an empty library, which any command treats as no library.
    /// - Returns: true when the library was removed.
    @discardableResult
    public func removeIfUnused() -> Bool {
        guard !missingItems.isEmpty else { return false }
        for folder in [LibraryLayout.recordings, LibraryLayout.drafts, LibraryLayout.trash] {
            let path = directory.appendingPathComponent(folder).path
            if let contents = try? FileManager.default.contentsOfDirectory(atPath: path), !contents.isEmpty { return false }
        }
        // Another process that opened the new library meanwhile and is changing it keeps it.
        let lockFile = directory.appendingPathComponent(LibraryLayout.writeLock)
        guard let lock = try? FileLock.acquire(lockFile) else { return false }
        defer { lock.release() }
        for item in missingItems {
            let path = directory.appendingPathComponent(item).path
            // rmdir removes a folder only when it is empty; unlink never touches a folder.
            if rmdir(path) != 0, errno == ENOTDIR { unlink(path) }
        }
        for folder in missingFolders.reversed() where rmdir(folder.path) != 0 { break }
        return !FileManager.default.fileExists(atPath: directory.appendingPathComponent(LibraryLayout.recordings).path)
    }
}
