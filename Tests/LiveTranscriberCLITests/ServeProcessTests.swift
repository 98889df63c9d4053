import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// `livetranscriber serve` as a user runs it: the built program, its URL, its exit on SIGTERM,
/// and the page in a real headless Chromium.
@Suite("Serve: the program and the page", .serialized)
struct ServeProcessTests {
    /// The package's folder (the scripts and .build are found from it).
    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A running `livetranscriber serve --port 0` over `library`, and the URL it printed.
    final class ServeProcess {
        let process = Process()
        let url: String
        let stderr = Pipe()

        init(_ library: ServedLibrary, arguments: [String] = ["serve", "--port", "0"]) throws {
            process.executableURL = try binaryURL()
            process.arguments = arguments
            process.environment = library.library.environment.merging(["TZ": "UTC", "PATH": "/usr/bin:/bin"]) { $1 }.merging(sanitizerEnvironment) { $1 }
            let stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            url = readOutput(until: "\n", in: stdout).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The port in the URL.
        var port: Int { Int(url.split(separator: ":")[2].split(separator: "/")[0]) ?? 0 }
        var token: String { String(url.split(separator: "=").last ?? "") }

        /// Sends SIGTERM and waits: the exit status and what was written on stderr.
        func stop() -> (Int32, String) {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    @Test("serve prints its URL with a token, answers with it, and exits 0 on SIGTERM")
    func servesUntilTerminated() throws {
        let library = try ServedLibrary()
        let serving = try ServeProcess(library)
        #expect(serving.url.hasPrefix("http://127.0.0.1:"))
        #expect(serving.token.count == 64)
        let reply = try HTTPReply.send(port: serving.port, method: "GET", path: "/api/recordings?limit=1",
                                       headers: ["Host": "127.0.0.1:\(serving.port)", "Cookie": "lt_token=\(serving.token)"])
        #expect(reply.status == 200)
        #expect(reply.text.contains(library.tagged.id))
        let (code, stderr) = serving.stop()
        #expect(code == 0)
        #expect(stderr == "Serving the library in \(library.library.url.path). Press Ctrl-C to stop.\nStopped.\n")
    }

    @Test("bad options are usage errors (exit 64) and nothing is served", arguments: [
        (["serve", "--port", "http"], "error: invalid value 'http' for '--port'; use a number from 0 to 65535"),
        (["serve", "--port", "70000"], "error: invalid value '70000' for '--port'; use a number from 0 to 65535"),
        (["serve", "--host", "example.com"], "error: invalid value 'example.com' for '--host'; give an IP address such as 127.0.0.1 or 0.0.0.0"),
        (["serve", "extra"], nil),
        (["serve", "--record-input", "/no/such.wav"], "error: invalid value '/no/such.wav' for '--record-input'; give an audio file that exists"),
        (["serve", "--record-input", "/tmp"], "error: invalid value '/tmp' for '--record-input'; give an audio file that exists"),
    ] as [([String], String?)])
    func usageErrors(arguments: [String], message: String?) throws {
        let library = try TemporaryLibrary()
        let result = library.run(arguments)
        #expect(result.exitCode == 64)
        if let message { #expect(result.stderr.hasPrefix(message + "\n")) }
        #expect(result.stdout.isEmpty)
    }

    @Test("--record-input a named pipe: read to its end before serving, shown by its name, and recorded from the page as the file would be")
    func recordInputPipe() throws {
        let library = try ServedLibrary()
        let folder = try TestFolders.make("lt-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("talk.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat '\(ServedLibrary.librivox)/sense_and_sensibility_01_austen_64kb-0880.wav' > '\(fifo.path)'"]
        try writer.run()
        let serving = try ServeProcess(library, arguments: ["serve", "--port", "0", "--record-input", fifo.path])
        writer.waitUntilExit()
        let headers = ["Host": "127.0.0.1:\(serving.port)", "Cookie": "lt_token=\(serving.token)", "X-LiveTranscriber-Token": serving.token]
        func recorder() throws -> [String: Any] {
            let reply = try HTTPReply.send(port: serving.port, method: "GET", path: "/api/live", headers: headers)
            return try #require(try reply.json()["recorder"] as? [String: Any])
        }
        #expect(try recorder()["input"] as? String == "talk.wav")
        let started = try HTTPReply.send(port: serving.port, method: "POST", path: "/api/live/record", headers: headers, body: Data("{}".utf8))
        #expect(started.status == 200, "\(started.text)")
        let deadline = Date().addingTimeInterval(60)
        var state = try recorder()
        while state["saved"] == nil && state["error"] == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            state = try recorder()
        }
        #expect(state["error"] == nil, "\(state)")
        let id = try #require(state["saved"] as? String, "\(state)")
        let shown = library.library.run("show", id)
        #expect(shown.stdout.contains("he was not an illness those young man"), "\(shown.stdout)")
        let (code, stderr) = serving.stop()
        #expect(code == 0)
        #expect(stderr == "Serving the library in \(library.library.url.path). Press Ctrl-C to stop.\nStopped.\n")
    }

    @Test("a port already taken is one line on stderr and exit 1")
    func portTaken() throws {
        let library = try ServedLibrary()
        let first = try ServeProcess(library)
        let second = library.library.run("serve", "--port", "\(first.port)")
        #expect(second.exitCode == 1)
        #expect(second.stderr == "error: cannot listen on 127.0.0.1 port \(first.port): Address already in use\n")
        #expect(first.stop().0 == 0)
    }

    @Test("--host 0.0.0.0 says that every network can reach it with the token")
    func everyInterface() throws {
        let library = try ServedLibrary()
        let serving = try ServeProcess(library, arguments: ["serve", "--port", "0", "--host", "0.0.0.0"])
        let (code, stderr) = serving.stop()
        #expect(code == 0)
        #expect(stderr.contains("note: listening on every network interface: anyone who can reach this machine and has the URL's token can use the library.\n"))
    }

    static let browserInstalled = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/lib/python3/dist-packages/selenium"]
        .allSatisfy { FileManager.default.fileExists(atPath: $0) }

    @Test("in headless Chromium: library, search as you type, open a recording, click the third row to seek there, play and follow the highlight, drop a file to import it; the Live page follows 'record' run beside it and records from the page",
          .enabled(if: browserInstalled, "chromium, chromium-driver and python3-selenium are not installed (scripts/install-deps.sh installs them)"))
    func browser() throws {
        let library = try ServedLibrary()
        // The page's recordings and the one run beside the server read the same 24.7 s of speech
        // (a copy: the library's own file is not the recorder's to read).
        let speech = library.library.url.deletingLastPathComponent().appendingPathComponent("speech-\(UUID().uuidString).wav")
        try FileManager.default.copyItem(at: library.audioFile(library.long), to: speech)
        defer { try? FileManager.default.removeItem(at: speech) }
        // A translation kept beside the long recording's transcript, as `retranscribe --translate` keeps one.
        let store = try LibraryStore(directory: library.library.url, timeZone: ServedLibrary.utc, audioMeasure: SndFileAudioMeasure())
        try store.saveTranslation(of: library.long.id, library.segments.enumerated().map { index, segment in
            TranscriptSegment(text: "Translated sentence \(index + 1).", startSeconds: segment.startSeconds, endSeconds: segment.endSeconds)
        }, language: "en")
        let serving = try ServeProcess(library, arguments: ["serve", "--port", "0", "--record-input", speech.path])
        let shots = Self.packageFolder.appendingPathComponent(".build/serve-screenshots")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        script.arguments = [Self.packageFolder.appendingPathComponent("scripts/serve-browser-test.py").path, serving.url, shots.path,
                            try binaryURL().path, speech.path]
        script.environment = library.library.environment.merging(["TZ": "UTC", "PATH": "/usr/bin:/bin"]) { $1 }.merging(sanitizerEnvironment) { $1 }
        let output = Pipe()
        script.standardOutput = output
        script.standardError = output
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        try? Data(text.utf8).write(to: shots.appendingPathComponent("log.txt"))  // what it checked and measured, kept with the screenshots
        #expect(serving.stop().0 == 0)
        if script.terminationStatus == 77 {
            print("ServeProcessTests.browser: skipped, as the script says: \(text)")
            return
        }
        #expect(script.terminationStatus == 0, "\(text)")
        #expect(text.contains("serve-browser-test: passed"), "\(text)")
        for name in ["library", "search", "recording", "translation", "playing", "playing-dark", "library-phone-dark", "recording-phone", "manage-phone", "import", "retranscribe", "speakers", "missing-recording",
                     "live-terminal", "live-terminal-saved", "live-page", "live-paused", "live-page-phone-dark"] {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(name + ".png").path))
        }
    }
}
