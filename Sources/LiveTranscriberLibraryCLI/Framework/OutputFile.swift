import Foundation

/// Files a command writes (`export --output`, `activity preview --out`, `record --activity-feed`).
///
/// A regular file (or a new one) written whole is replaced atomically: written to a temporary
/// name, then renamed, so a failure never leaves half a file. Anything else that already stands
/// at the path (a symbolic link, a FIFO, a device such as /dev/stdout) is written through, never
/// replaced.
package enum OutputFile {
    /// Writes `data` as the whole file. Throws `OutputFileError` naming what is wrong with the path.
    package static func write(_ data: Data, to path: String) throws {
        do {
            if try kind(of: path) == .special {
                let handle = try open(path)
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
                return
            }
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch let error as OutputFileError {
            throw error
        } catch {
            // A full disk or device, an I/O error: the message names the path it was for.
            throw OutputFileError(path: path, reason: CommandRunner.describe(error))
        }
    }

    /// Opens `path` for a stream of writes: a regular file is created or truncated, anything else
    /// is opened as it is. Throws `OutputFileError`.
    package static func open(_ path: String) throws -> FileHandle {
        let kind = try kind(of: path)
        if kind == .missing, !FileManager.default.createFile(atPath: path, contents: nil) {
            throw OutputFileError(path: path, reason: "it cannot be created")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw OutputFileError(path: path, reason: "it cannot be opened for writing")
        }
        if kind == .regular { try? handle.truncate(atOffset: 0) }
        return handle
    }

    /// Throws `UsageError` ("cannot write PATH: it is inside the library …", exit 64: the option's
    /// value is what is wrong) when `path` lies inside the library folder `library` (after symbolic
    /// links, `..` and a missing tail are resolved): a file written there could replace a
    /// recording's metadata, transcript or audio, or the index.
    package static func refuseInsideLibrary(_ path: String, library: URL) throws {
        let target = resolved(path), home = resolved(library.path)
        if target == home || target.hasPrefix(home.hasSuffix("/") ? home : home + "/") {
            throw UsageError(OutputFileError(path: path, reason: "it is inside the library (\(library.path)); write it somewhere else").description)
        }
    }

    /// Throws `UsageError` ("cannot write PATH: it is the same file as OTHER_NAME; …", exit 64) when `path` names
    /// the same file as `other` (after symbolic links, `..` and a missing tail are resolved): an
    /// output written over a command's input file would destroy it.
    package static func refuseSameFile(_ path: String, as other: String, otherName: String) throws {
        if resolved(path) == resolved(other) {
            throw UsageError(OutputFileError(path: path, reason: "it is the same file as \(otherName); write it somewhere else").description)
        }
    }

    /// `path` made absolute with symbolic links resolved in the part that exists.
    private static func resolved(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var real = existing.path
        if let pointer = realpath(existing.path, nil) {
            real = String(cString: pointer)
            free(pointer)
        }
        return ([real == "/" ? "" : real] + missing).joined(separator: "/")
    }

    /// Makes the output folder `path` (and the folders on its way) unless it is one already.
    /// Throws `OutputFileError` when something other than a folder stands at `path` ("it is a
    /// file, not a folder; give a folder") or on its way ("… is a file, not a folder").
    package static func makeFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw OutputFileError(path: path, reason: "it is a file, not a folder; give a folder") }
            return
        }
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            ancestor.deleteLastPathComponent()
        }
        if ancestor.path != "/" && !isFolder.boolValue {
            throw OutputFileError(path: path, reason: "\(ancestor.path) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputFileError(path: path, reason: CommandRunner.describe(error))
        }
    }

    private enum Kind { case missing, regular, special }

    /// What stands at `path`; throws for a folder or a parent that is not a folder.
    private static func kind(of path: String) throws -> Kind {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        switch attributes?[.type] as? FileAttributeType {
        case .typeDirectory?: throw OutputFileError(path: path, reason: "it is a folder; give a file name")
        case .typeRegular?: return .regular
        case .some: return .special
        case nil: break
        }
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil { return .special }
        var isFolder: ObjCBool = false
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) else {
            throw OutputFileError(path: path, reason: "the folder \(parent) does not exist")
        }
        guard isFolder.boolValue else { throw OutputFileError(path: path, reason: "\(parent) is a file, not a folder") }
        return .missing
    }
}

package struct OutputFileError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "cannot write \(path): \(reason)" }
}
