import Foundation

/// Writes a command's output file (`export --output`, `activity preview --out`).
///
/// A regular file (or a new one) is replaced atomically: written to a temporary name, then renamed,
/// so a failure never leaves half a file. Anything else that already stands at the path (a symbolic
/// link, a FIFO, a device such as /dev/stdout) is written through, never replaced.
enum OutputFile {
    /// Throws `OutputFileError` naming the path and what is wrong with it.
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let type = attributes?[.type] as? FileAttributeType
        if type == .typeDirectory { throw OutputFileError(path: path, reason: "it is a folder; give a file name") }
        var isFolder: ObjCBool = false
        let parent = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) else {
            throw OutputFileError(path: path, reason: "the folder \(parent) does not exist")
        }
        guard isFolder.boolValue else { throw OutputFileError(path: path, reason: "\(parent) is a file, not a folder") }
        if let type, type != .typeRegular {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw OutputFileError(path: path, reason: "it cannot be opened for writing")
            }
            defer { try? handle.close() }
            try? handle.truncate(atOffset: 0)
            try handle.write(contentsOf: data)
            return
        }
        try data.write(to: url, options: .atomic)
    }
}

struct OutputFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
}
