import Foundation

/// Where tests put their files: one folder per test process, removed when the process exits, so a
/// test that fails half-way (or forgets to clean up) leaves nothing behind in the temporary directory.
public enum TestFolders {
    /// `<tmp>/livetranscriber-tests-<pid>/`, created on first use.
    public static let root: URL = {
        let url = URL(fileURLWithPath: rootPath, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: rootPath) }
        return url
    }()

    /// A new empty folder under `root`, named `prefix-<uuid>`.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

private let rootPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("livetranscriber-tests-\(ProcessInfo.processInfo.processIdentifier)").path
