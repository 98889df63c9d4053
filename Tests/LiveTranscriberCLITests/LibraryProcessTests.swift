import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import Testing

@Suite("Library commands in a second process", .enabled(if: builtBinary != nil, "needs the built livetranscriber binary (swift build --build-tests)"))
struct LibraryProcessTests {
    struct Finished {
        var code: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs the binary with the library in `home` and waits for it.
    static func run(_ arguments: [String], home: URL) throws -> Finished {
        let process = Process()
        process.executableURL = builtBinary
        process.arguments = arguments
        process.environment = ["LIVETRANSCRIBER_HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(started))
    }

    @Test("a rename in another process waits for this process's write transaction, then succeeds; a list does not wait")
    func renameWaitsListDoesNot() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        try cli.sampleLibrary()
        let blocker = try SQLiteDatabase(path: cli.home.appendingPathComponent("library.sqlite").path)
        try blocker.execute("BEGIN IMMEDIATE")
        let list = try Self.run(["list", "--json"], home: cli.home)
        #expect(list.code == 0)
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).count == 2)

        let home = cli.home
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var rename: Result<Finished, any Error>?
        Thread {
            rename = Result { try Self.run(["rename", "20261129-204112-3f9a", "Renamed elsewhere"], home: home) }
            finished.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.8)
        try blocker.execute("COMMIT")
        finished.wait()
        let result = try #require(try rename?.get())
        #expect(result.code == 0)
        #expect(result.stdout == "Renamed 20261129-204112-3f9a to 'Renamed elsewhere'.\n")
        #expect(result.stderr == "")
        #expect(result.seconds >= 0.7)
        #expect(try cli.store().resolve("20261129-204112-3f9a").name == "Renamed elsewhere")
    }

    @Test("the binary exits 64 for a usage error and 1 for an unknown recording")
    func exitCodes() throws {
        let cli = try CLIHarness()
        defer { cli.remove() }
        let usage = try Self.run(["show"], home: cli.home)
        #expect(usage.code == 64)
        #expect(usage.stderr.hasPrefix("error: missing ID\n"))
        let missing = try Self.run(["show", "nope"], home: cli.home)
        #expect(missing.code == 1)
        #expect(missing.stderr == "error: no recording matches 'nope'. Run 'livetranscriber list' to see the ids.\n")
    }
}
