import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import LiveTranscriberTerminal

/// `livetranscriber serve [--port N] [--host ADDR] [--open]`: the library as a web page and a
/// JSON API (docs/serve.md), until Ctrl-C or SIGTERM.
package struct ServeCommand: CLICommand {
    /// What the full program registers (`LiveTranscriberCommandLine(serve:)`).
    package static let entry = CommandEntry(ServeCommand.self)

    static let defaultPort = 8750

    package static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve the library as a web page on this machine.",
        options: [port, host, open, recordInput],
        discussion: """
            Prints the page's URL, which holds a random access token: every request needs it (the
            page keeps it in a cookie), so keep the URL to yourself. Runs until Ctrl-C or SIGTERM,
            then exits with status 0. The JSON API the page uses is described in docs/serve.md.
            """
    )

    static let port = OptionSpec.value("port", "n", "The TCP port to listen on (default \(defaultPort); 0 picks a free one).")
    static let host = OptionSpec.value("host", "address", "The IP address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 is every network).")
    static let open = OptionSpec.flag("open", "Open the page in the default browser (xdg-open).")
    static let recordInput = OptionSpec.value(
        "record-input", "file", "Record this audio file, played in real time, when the page starts a recording (default: the microphone); a pipe is read to its end first.")

    var port: Int
    var host: String
    var open: Bool
    /// What the page's Record button records.
    var recordInput: RecordingInput

    package init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        port = Self.defaultPort
        if let text = arguments.value(Self.port) {
            guard let number = Int(text), (0...65535).contains(number) else {
                throw UsageError("invalid value '\(TerminalText.prefix(text, width: 40))' for '--port'; use a number from 0 to 65535")
            }
            port = number
        }
        host = arguments.value(Self.host) ?? "127.0.0.1"
        guard WebAccess.isIPAddress(host) else {
            throw UsageError("invalid value '\(TerminalText.prefix(host, width: 40))' for '--host'; give an IP address such as 127.0.0.1 or 0.0.0.0")
        }
        open = arguments.flag(Self.open)
        if let file = arguments.value(Self.recordInput) {
            guard !file.isEmpty else { throw UsageError("--record-input needs a path") }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else {
                throw UsageError("invalid value '\(TerminalText.prefix(file, width: 60))' for '--record-input'; give an audio file that exists")
            }
            recordInput = .file(path: file)
        } else {
            recordInput = .microphone(device: "default", sampleRate: 48_000, channels: 1)
        }
    }

    package func run(in context: CommandContext) throws -> Int32 {
        try LibraryAccess.checkDataDirectory(context)
        let token = WebAccess.newToken()
        let signals = StopSignals()
        defer { signals.cancel() }
        // A pipe (`<(cat talk.flac)`, a named pipe) is read to its end into a temporary file first,
        // kept while serving, and Record plays that copy each time, as `record --input` reads a
        // pipe (UserPath); a device is refused in one line, exit 1.
        var recordInput = self.recordInput
        var inputCopy: UserPath?
        if case .file(let path) = recordInput {
            do {
                inputCopy = try UserPath(path, readingStreams: { signals.stopRequested }, reader: "serve --record-input")
            } catch RecordingInterrupted.cancelled {
                context.printError("Stopped.")
                return ExitCode.success
            }
            recordInput = .file(path: inputCopy?.path ?? path)
        }
        defer { withExtendedLifetime(inputCopy) {} }
        let inputName = inputCopy.map { URL(fileURLWithPath: PathBytes.readable($0.argument)).lastPathComponent }
        let recordings = LiveRecordings(dataDirectory: context.dataDirectory)
        recordings.start()
        defer { recordings.stop() }
        let retranscriber = WebRetranscriber(context: context)
        // A recording saved from the page is refined as `record` refines one: a transcribe-again job the page follows.
        let recorder = WebRecorder(context: context, input: recordInput, inputName: inputName, recordings: recordings, refiner: retranscriber)
        let api = LibraryWebAPI(token: token, host: host, timeZone: LibraryAccess.timeZone(context),
                                importer: WebImport(context: context, stopFlag: signals.stopFlag),
                                live: LiveWebAPI(recordings: recordings, recorder: recorder),
                                retranscriber: retranscriber) {
            try makeStore(context)
        }
        let server = try MicroHTTPServer(host: host, port: port, maximumBodyBytes: WebAccess.maximumBodyBytes) { api.respond(to: $0) }
        api.listening(on: server.port)
        let url = api.access.url
        context.printError("Serving the library in \(context.dataDirectory.path). Press Ctrl-C to stop.")
        if host == "0.0.0.0" || host == "::" {
            context.printError("note: listening on every network interface: anyone who can reach this machine and has the URL's token can use the library.")
        } else if !(host.hasPrefix("127.") || host == "::1") {
            context.printError("note: listening on \(host): anyone who can reach that address and has the URL's token can use the library.")
        }
        context.print(url)
        if open { Self.openInBrowser(url, context: context) }
        signals.waitForStop()
        recorder.stopForShutdown()  // a recording from the page is saved
        recordings.stop()  // event streams end, so the server's threads can
        withExtendedLifetime(server) {}
        context.printError("Stopped.")
        return ExitCode.success
    }

    /// Runs `xdg-open URL`; says so on stderr when it cannot.
    static func openInBrowser(_ url: String, context: CommandContext) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            context.printError("note: could not open a browser (\(CommandRunner.describe(error))); open the URL above yourself.")
        }
    }
}
