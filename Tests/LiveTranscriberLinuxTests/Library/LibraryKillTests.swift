import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The test runner executable, which the kill test starts again as a recorder to kill.
private let testRunner: URL? = {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return path.lastPathComponent.hasSuffix(".xctest") && FileManager.default.isExecutableFile(atPath: path.path) ? path : nil
}()

private let helperVariable = "LT_KILL_HELPER_HOME"

@Suite("LibraryStore kill -9")
struct LibraryKillTests {
    typealias F = LibraryFixtures

    /// Runs only inside the child process: records into a draft the way `record` does (WAV header
    /// written with sizes 0, PCM appended, segments journaled), says "LT-READY", then waits to be killed.
    @Test("(helper) a recorder that waits to be killed", .enabled(if: ProcessInfo.processInfo.environment[helperVariable] != nil))
    func recorderToKill() throws {
        let home = URL(fileURLWithPath: ProcessInfo.processInfo.environment[helperVariable]!)
        let store = try LibraryStore(directory: home, timeZone: F.utc)
        let draft = try store.createDraft(id: "killed", createdAt: F.t0, language: "en-US", audio: F.mono16k, name: "Killed mid-sentence")
        _ = FileManager.default.createFile(atPath: draft.audioFile.path, contents: WAVFixture.make(audio: [], riffSize: 0, dataSize: 0))
        let audio = try FileHandle(forWritingTo: draft.audioFile)
        try audio.seekToEnd()
        try audio.write(contentsOf: WAVFixture.silence(bytes: 32_000))
        try store.appendToJournal(F.segment("first words", 0.2, 0.9), draft: draft)
        try audio.write(contentsOf: WAVFixture.silence(bytes: 32_000))
        try store.appendToJournal(F.segment("then more", 1.1, 1.8), draft: draft)
        try audio.write(contentsOf: WAVFixture.silence(bytes: 16_000))
        FileHandle.standardOutput.write(Data("LT-READY\n".utf8))
        Thread.sleep(forTimeInterval: 60)
        Issue.record("the helper was not killed")
    }

    @Test("a recorder killed with SIGKILL leaves a draft that is recovered with its segments and 2.5 s of audio",
          .enabled(if: testRunner != nil && ProcessInfo.processInfo.environment[helperVariable] == nil))
    func killedRecorderIsRecovered() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let child = Process()
        child.executableURL = testRunner
        child.arguments = ["--testing-library", "swift-testing", "--filter", "recorderToKill"]
        child.environment = ProcessInfo.processInfo.environment.merging([helperVariable: home.url.path]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("LT-READY\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        try #require(String(decoding: seen, as: UTF8.self).contains("LT-READY\n"))

        let store = try F.store(home)
        #expect(try store.recoverDrafts() == [])  // Still recording: its lock is held.
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let recovered = try store.recoverDrafts()
        #expect(recovered == [Recording(id: "killed", name: "Killed mid-sentence", createdAt: F.t0, durationSeconds: 2.5,
                                        language: "en-US", audio: F.mono16k, recovered: true,
                                        audioDigest: "sha256:e2ddf2b6587fe07866a1eb31c0d19bc35a9ecd8f2265e544e0378948a57610da")])
        #expect(try store.transcript(of: "killed") == [F.segment("first words", 0.2, 0.9), F.segment("then more", 1.1, 1.8)])
        let audio = try Data(contentsOf: try store.audioFile(of: "killed"))
        #expect(audio == WAVFixture.make(audio: WAVFixture.silence(bytes: 80_000)))
    }
}
