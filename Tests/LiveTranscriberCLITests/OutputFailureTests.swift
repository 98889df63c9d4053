import Foundation
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import LiveTranscriberTestSupport
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
        let id = try #require(library.recordingFolders.first)
        let name = try library.store().resolve(id).name
        #expect(result.stderr == "error: could not write to standard output: Broken pipe\n"
            + "note: the recording was saved as \(id) ('\(name)', 0:02); see it with 'livetranscriber show \(id)'.\n")
        #expect(library.recordingFolders.count == 1)
        #expect(library.draftFolders.isEmpty)
    }

    @Test("list, search and show into a pipe whose reader has gone (| head -1) stop quietly with 141, as if SIGPIPE ended them")
    func readerGone() throws {
        let library = try TemporaryLibrary()
        let store = try library.store()
        for index in 0..<3 {
            let draft = try store.createDraft(id: "2026120\(index + 1)-101500-aaaa", createdAt: Date(timeIntervalSince1970: 1_795_984_872 + Double(index)),
                                              language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
            try WAVFixture.make(audio: WAVFixture.silence(bytes: 32_000)).write(to: draft.audioFile)
            _ = try store.saveDraft(draft, name: "Meeting \(index)", tags: [], location: nil, durationSeconds: 1,
                                    segments: [TranscriptSegment(text: "the meeting about the budget", startSeconds: 0, endSeconds: 1)])
        }
        for arguments in [["list"], ["search", "meeting"], ["show", "latest"], ["list", "--json"]] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let result = try run(arguments, library: library, stdout: pipe)
            #expect(result.code == 141, "\(arguments)")
            #expect(result.stderr == "", "\(arguments)")
        }
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
        let elsewhere = try TemporaryLibrary()  // outside the library: writing into it is refused
        let target = elsewhere.url.appendingPathComponent("target.txt")
        let link = elsewhere.url.appendingPathComponent("link.txt")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(library.run("export", "latest", "--format", "txt", "--output", link.path).exitCode == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).contains("go forward ten meters"))
        let missing = elsewhere.url.appendingPathComponent("no/such/folder/out.srt").path
        let failed = library.run("export", "latest", "--format", "srt", "--output", missing)
        #expect(failed.exitCode == 1)
        #expect(failed.stderr == "error: cannot write \(missing): the folder \(elsewhere.url.path)/no/such/folder does not exist\n")
        let full = library.run("export", "latest", "--format", "txt", "--output", "/dev/full")
        #expect(full.exitCode == 1)
        #expect(full.stderr == "error: cannot write /dev/full: No space left on device\n")
    }

    @Test("Ctrl-C during import discards the file in progress, keeps those already imported, and exits 130")
    func interruptedImport() throws {
        let library = try TemporaryLibrary()
        let speech = try goForwardSamples()
        let long = library.url.appendingPathComponent("long.wav")
        try WAVBytes.make(samples: Array((0..<40).map { _ in speech }.joined()), rate: 16_000, channels: 1, encoding: .pcm16)
            .write(to: long)
        let (process, out, err) = try startBinary(["import", Speech.librivox, long.path, Speech.librivox], library: library)
        let seen = readOutput(until: "\n", in: out)
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

@Suite("A damaged index seen from the command line")
struct DamagedIndexCommandTests {
    @Test("search on an index with overwritten pages rebuilds it, answers right, and says so on stderr")
    func searchRebuilds() throws {
        let library = try TemporaryLibrary()
        do {
            let store = try LibraryStore(directory: library.url, timeZone: TimeZone(identifier: "UTC")!)
            for index in 0..<40 {
                let draft = try store.createDraft(id: "r\(index)", createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                                                  language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
                try WAVFixture.make(audio: WAVFixture.silence(bytes: 3_200)).write(to: draft.audioFile)
                let text = String(repeating: "budget plan review ", count: 30)
                _ = try store.saveDraft(draft, name: "Meeting \(index)", tags: [], location: nil, durationSeconds: 0.1,
                                    segments: [TranscriptSegment(text: text, startSeconds: 0, endSeconds: 5)])
            }
        }
        let file = library.url.appendingPathComponent("library.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        var bytes = try Data(contentsOf: file)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        for page in stride(from: 3 * pageSize, to: bytes.count - 600, by: pageSize) {
            bytes.replaceSubrange(page + 100..<page + 600, with: Data(repeating: 0xA5, count: 500))
        }
        try bytes.write(to: file)

        let result = library.run("search", "budget", "--limit", "100", "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: the search index was damaged and has been rebuilt"))
        let hits = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(hits?.count == 40)
    }
}

@Suite("File errors in one line")
struct FileErrorSentenceTests {
    @Test("a Foundation file error with no underlying POSIX error reads as the system's reason, with its path",
          arguments: [
              (CocoaError.Code.fileWriteNoPermission, "/srv/lib: Permission denied"),
              (.fileWriteVolumeReadOnly, "/srv/lib: Read-only file system"),
              (.fileWriteOutOfSpace, "/srv/lib: No space left on device"),
              (.fileNoSuchFile, "/srv/lib: No such file or directory"),
          ])
    func cocoaCodeReason(code: CocoaError.Code, expected: String) {
        let error = CocoaError(code, userInfo: [NSFilePathErrorKey: "/srv/lib"])
        #expect(CommandRunner.describe(error) == expected)
    }

    @Test("an unknown Foundation file code still names its domain and code instead of guessing")
    func unknownCocoaCode() {
        let error = NSError(domain: NSCocoaErrorDomain, code: 4_999, userInfo: [NSFilePathErrorKey: "/srv/lib"])
        #expect(CommandRunner.describe(error) == "/srv/lib: cannot be read or written (NSCocoaErrorDomain 4999)")
    }
}
