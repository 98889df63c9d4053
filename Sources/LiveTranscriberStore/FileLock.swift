import Foundation
import Synchronization

/// An exclusive `flock` on a file: a draft's `lock` while a process records into it, or the library's write lock.
///
/// The file holds the owner's pid (for people; the lock is what counts). The kernel drops the lock
/// when the process dies, even by `kill -9`, so a draft whose lock can be taken has no live owner.
/// Closing (`release()` or `deinit`) drops it.
public final class FileLock: Sendable {
    /// The open lock file; -1 once released.
    private let descriptor: Mutex<Int32>
    /// The lock file.
    public let file: URL

    private init(descriptor: Int32, file: URL) {
        self.descriptor = Mutex(descriptor)
        self.file = file
    }

    deinit {
        release()
    }

    /// Takes the lock on `file` (creating it) without waiting.
    /// - Returns: The held lock, or nil when another open file (another process) holds it.
    /// - Throws: `FileSystemError` when the file cannot be opened.
    public static func acquire(_ file: URL) throws -> FileLock? {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: file.path, errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK { return nil }
            throw FileSystemError(call: "flock", path: file.path, errno: error)
        }
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return FileLock(descriptor: descriptor, file: file)
    }

    /// Takes the lock on `file`, waiting for its holder to release it (a library-wide write lock).
    public static func wait(_ file: URL) throws -> FileLock {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(call: "open", path: file.path, errno: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let error = errno
            close(descriptor)
            throw FileSystemError(call: "flock", path: file.path, errno: error)
        }
        return FileLock(descriptor: descriptor, file: file)
    }

    /// Drops the lock now.
    public func release() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 {
                close(descriptor)
                descriptor = -1
            }
        }
    }
}
