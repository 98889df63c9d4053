import Foundation

/// A failed file system call: the call, the path and errno's message.
public struct FileSystemError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var path: String
    public var errno: Int32

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String {
        "\(call) failed for \(path): \(String(cString: strerror(errno)))"
    }
}

/// Crash-safe file writes: temporary name in the same folder, fsync, rename, fsync the folder.
///
/// After a crash a reader sees the old file or the new one, never a mix; the rename is durable once
/// the folder is fsync'd. A process killed between the two leaves its temporary file
/// (`.NAME.tmp-PID-RANDOM`); the next write of the same file removes those of processes no longer
/// running, so they do not pile up (`library.generation` is written by every change).
enum DurableFile {
    /// Writes `data` to `url` atomically and durably, then removes the temporary files that killed
    /// writers of `url` left (`removeAbandonedTemporaries`).
    static func write(_ data: Data, to url: URL) throws {
        defer { removeAbandonedTemporaries(of: url) }
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: temporary.path, errno: errno) }
        do {
            try writeAll(data, to: descriptor, path: temporary.path)
            guard Platform.sync(descriptor) == 0 else { throw FileSystemError(call: "fsync", path: temporary.path, errno: errno) }
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(temporary.path)
            throw error
        }
        try rename(temporary, to: url)
    }

    /// Removes `.NAME.tmp-PID-*` next to `url` whose process `PID` is no longer running. A temporary
    /// of a running process (this one included) is kept: it may be about to be renamed into place.
    /// Best effort: a folder that cannot be listed or a file that cannot be removed is left as it is
    /// (it holds no data the library needs; the next write tries again).
    static func removeAbandonedTemporaries(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { unlink(folder.appendingPathComponent(name).path) }
        }
    }

    /// Appends `data` to `url` (creating it) and fsyncs it before returning.
    /// The file's bytes, or nil when no file is there. Any other failure (permissions, an I/O
    /// error) throws: a backup that cannot be read is not "no backup".
    /// - Throws: `FileSystemError` naming the call and the reason.
    static func readIfPresent(_ url: URL) throws -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileSystemError(call: "open", path: url.path, errno: errno)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw FileSystemError(call: "read", path: url.path, errno: EIO)
        }
    }

    static func append(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: url.path, errno: errno) }
        defer { close(descriptor) }
        try writeAll(data, to: descriptor, path: url.path)
        guard Platform.sync(descriptor) == 0 else { throw FileSystemError(call: "fsync", path: url.path, errno: errno) }
    }

    /// Renames `source` to `destination` (replacing a file, or an empty folder) and fsyncs both folders.
    static func rename(_ source: URL, to destination: URL) throws {
        guard Platform.rename(source.path, destination.path) == 0 else {
            throw FileSystemError(call: "rename", path: "\(source.path) -> \(destination.path)", errno: errno)
        }
        try syncFolder(destination.deletingLastPathComponent())
        if source.deletingLastPathComponent().path != destination.deletingLastPathComponent().path {
            try syncFolder(source.deletingLastPathComponent())
        }
    }

    /// fsyncs a file written by someone else (an encoder) so that its bytes survive a crash.
    static func syncFile(_ file: URL) throws {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: file.path, errno: errno) }
        defer { close(descriptor) }
        guard Platform.sync(descriptor) == 0 else { throw FileSystemError(call: "fsync", path: file.path, errno: errno) }
    }

    /// fsyncs a folder so that renames and creations in it survive a crash.
    static func syncFolder(_ folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: folder.path, errno: errno) }
        defer { close(descriptor) }
        guard Platform.sync(descriptor) == 0 else { throw FileSystemError(call: "fsync", path: folder.path, errno: errno) }
    }

    /// Creates `folder` (and its parents) if missing.
    static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileSystemError(call: "write", path: path, errno: errno)
                }
                offset += written
            }
        }
    }
}
