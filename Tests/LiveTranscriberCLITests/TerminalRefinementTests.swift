import Foundation
import LiveTranscriberCore
import Testing

/// `record`'s second pass as a person sees it on a terminal: the built binary in a tmux pane,
/// its screens read with `capture-pane` as it runs.
@Suite("record on a terminal: the second pass", .serialized)
struct TerminalRefinementTests {
    static let tmuxInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    /// `tmux -L socket arguments` (a server of the test's own, so no other session's environment
    /// leaks in); the output of commands that answer, such as `capture-pane`.
    func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Starts the server and its session through the shell: a `Process` would wait until the
    /// server it forks exits (it keeps a descriptor Foundation watches), here a minute.
    func startSession(_ socket: String, command: String) {
        let quoted = "'" + command.replacingOccurrences(of: "'", with: "'\\''") + "'"
        _ = system("tmux -L \(socket) new-session -d -s record -x 100 -y 40 \(quoted) </dev/null >/dev/null 2>&1")
    }

    @Test("under the saved line, one progress line moves while the saved audio is transcribed again, then the Refined line takes its place",
          .enabled(if: tmuxInstalled, "tmux is not installed (scripts/install-deps.sh installs it)"))
    func progressLineThenRefinedLine() throws {
        let library = try TemporaryLibrary()
        let (path, _) = try JoinedLibriVox.make()
        let socket = "lt-\(UUID().uuidString.prefix(8))"
        let command = "env -u LIVETRANSCRIBER_ENGINE LIVETRANSCRIBER_HOME='\(library.url.path)' HOME='\(library.url.path)' NO_COLOR=1 TZ=UTC "
            + "'\(try binaryURL().path)' record --input '\(path)' --speed max --name Demo; echo \"exit $?\"; sleep 60"
        startSession(socket, command: command)
        defer { _ = system("tmux -L \(socket) kill-server >/dev/null 2>&1") }
        var screens: [String] = []
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            let screen = try tmux(socket, ["capture-pane", "-p", "-J", "-t", "record"])
            if screens.last != screen { screens.append(screen) }
            if screen.contains("\nexit ") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let last = try #require(screens.last)
        let lines = last.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("exit 0"), "\(last)")
        let id = try #require(library.recordingFolders.first)
        // Below the card: the saved line, the refined line, nothing of the progress line left.
        let tail = Array(lines.drop { !$0.hasPrefix("Saved ") }.prefix(3))
        #expect(tail.count == 3 && tail[0].hasPrefix("Saved \"Demo\" as \(id): 0:24, "), "\(last)")
        #expect(tail.dropFirst().first == "Refined the transcript: 5 segments; the live one is kept ('livetranscriber retranscribe \(id) --restore' puts it back).", "\(last)")
        #expect(!last.contains("Refining"), "\(last)")
        // While it ran: the progress line, fitted to the 100 columns, right under the saved line.
        let progress = screens.compactMap { screen -> String? in
            let lines = screen.split(separator: "\n").map(String.init)
            guard let saved = lines.firstIndex(where: { $0.hasPrefix("Saved ") }), saved + 1 < lines.count else { return nil }
            return lines[saved + 1].hasPrefix("Refining (Ctrl-C keeps the live transcript)  [") ? lines[saved + 1] : nil
        }
        #expect(!progress.isEmpty, "\(screens)")
        #expect(progress.allSatisfy { $0.count <= 99 && $0.contains("%") && $0.contains("elapsed") }, "\(progress)")
    }
}
