import Foundation
import LiveTranscriberCore
import Testing

/// What happens when output cannot be written, or a command is interrupted.
@Suite("Output failures and interruptions")
struct OutputFailureTests {
    func run(_ arguments: [String], library: TemporaryLibrary, stdout: Any) throws -> (code: Int32, stderr: String) {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
        process.standardOutput = stdout
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    @Test("record with its stdout closed still saves the recording, then reports the write failure with exit 1")
    func closedPipe() throws {
        let library = try TemporaryLibrary()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try run(["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max"], library: library, stdout: pipe)
        #expect(result.code == 1)
        #expect(result.stderr == "error: could not write to standard output: Broken pipe\n")
        #expect(library.recordingFolders.count == 1)
        #expect(library.draftFolders.isEmpty)
    }

    @Test("list on a full disk is one clear line and exit 1, not a crash")
    func fullDisk() throws {
        let library = try TemporaryLibrary()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try run(["activity", "preview", "--help"], library: library, stdout: full)
        #expect(result.code == 1)
        #expect(result.stderr == "error: could not write to standard output: No space left on device\n")
    }

    @Test("export --output writes through a symbolic link instead of replacing it, and names a missing folder")
    func outputThroughLink() throws {
        let library = try TemporaryLibrary()
        #expect(library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max").exitCode == 0)
        let target = library.url.appendingPathComponent("target.txt")
        let link = library.url.appendingPathComponent("link.txt")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(library.run("export", "latest", "--format", "txt", "--output", link.path).exitCode == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).contains("go forward ten meters"))
        let missing = library.url.appendingPathComponent("no/such/folder/out.srt").path
        let failed = library.run("export", "latest", "--format", "srt", "--output", missing)
        #expect(failed.exitCode == 1)
        #expect(failed.stderr == "error: cannot write \(missing): the folder \(library.url.path)/no/such/folder does not exist\n")
    }

    @Test("Ctrl-C during import discards the file in progress, keeps those already imported, and exits 130")
    func interruptedImport() throws {
        let library = try TemporaryLibrary()
        let speech = try goForwardSamples()
        let long = library.url.appendingPathComponent("long.wav")
        try WAVBytes.make(samples: Array((0..<40).map { _ in speech }.joined()), rate: 16_000, channels: 1, encoding: .pcm16)
            .write(to: long)
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = ["import", Speech.librivox, long.path, Speech.librivox]
        process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var seen = ""
        while !seen.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.hasPrefix("Imported \(Speech.librivox) as "))
        Thread.sleep(forTimeInterval: 0.5)  // well inside the 111 s file
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("Import stopped: 1 imported, 2 not imported."))
        #expect(library.recordingFolders.count == 1)
        #expect(library.draftFolders.isEmpty)
    }
}
