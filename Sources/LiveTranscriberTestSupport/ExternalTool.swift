import Foundation

/// The command-line tools tests make real audio with (sox, espeak-ng): run to the end, their
/// stderr dropped.
public enum ExternalTool {
    /// Runs `tool` (an absolute path) with `arguments` and waits for it.
    /// - Throws: `CocoaError(.fileWriteUnknown)` when it exits with a status other than 0; what
    ///   `Process.run` throws when it cannot be started.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
