import Foundation

/// Why a library cannot be changed, while it can still be read (list, show, search, export).
public enum LibraryWriteBlock: Sendable, Equatable, CustomStringConvertible {
    /// The library's folder cannot be written: read-only media (`media`) or no permission.
    case readOnly(path: String, media: Bool)
    /// The disk holding the library has no free block or inode; deleting with `--purge` can
    /// still free space.
    case diskFull(path: String)
    /// Writing was refused for another reason (the write lock could not be taken), in words.
    case refused(reason: String)

    /// True for a full disk, where a change that frees space may still go ahead.
    public var isDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .readOnly(let path, let media):
            "the library at \(path) is read-only\(media ? " (read-only media)" : ""): "
                + "list, show, search and export work, but nothing can be changed or recorded"
        case .diskFull(let path):
            "the disk holding the library at \(path) is full: list, show, search and export work, "
                + "and 'delete --purge' frees space; nothing else can be changed until there is room"
        case .refused(let reason):
            reason
        }
    }
}
