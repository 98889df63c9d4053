import Foundation
import LiveTranscriberTestSupport
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import Testing

@Suite("activity preview command")
struct ActivityPreviewTests {
    static let rsvgConvert = "/usr/bin/rsvg-convert"

    /// A fresh temporary directory for one test.
    func temporaryDirectory() throws -> URL {
        let url = try TestFolders.make("activity-preview")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func run(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let result = try! TemporaryLibrary().run(arguments)
        return (result.exitCode, result.stdout, result.stderr)
    }

    /// Converts `svg` to PNG with rsvg-convert; returns its exit status and the PNG's pixel size.
    func rasterize(_ svg: URL) throws -> (status: Int32, width: Int, height: Int, bytes: Int) {
        let png = svg.deletingPathExtension().appendingPathExtension("png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.rsvgConvert)
        process.arguments = [svg.path, "-o", png.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return (process.terminationStatus, 0, 0, 0) }
        let data = try Data(contentsOf: png)
        // PNG: 8-byte signature, then the IHDR chunk: length, "IHDR", width and height big-endian.
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(String(decoding: data[12..<16], as: UTF8.self) == "IHDR")
        let bigEndian = { (offset: Int) in data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (0, bigEndian(16), bigEndian(20), data.count)
    }

    @Test("writes four SVGs that rasterize at the design sizes and show the drawn elements")
    func rendersRecording() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = run(["activity", "preview", "--out", dir.path, "--text", "Hello <world> & friends", "--elapsed", "3909"])
        #expect(result.code == 0)
        #expect(result.stderr == "")
        let expected: [(String, Int, Int)] = [
            ("lock-screen.svg", 364, 160), ("island-expanded.svg", 371, 160),
            ("island-compact.svg", 126, 37), ("island-minimal.svg", 37, 37),
        ]
        #expect(result.stdout == expected.map { dir.appendingPathComponent($0.0).path + "\n" }.joined())
        for (name, width, height) in expected {
            let png = try rasterize(dir.appendingPathComponent(name))
            #expect(png.status == 0, "\(name)")
            #expect(png.width == width, "\(name)")
            #expect(png.height == height, "\(name)")
            // Something is drawn: the PNG is several times larger than an empty image of the same
            // size (an empty 364×160 PNG is about 320 bytes, the drawn card about 18,000).
            let blank = dir.appendingPathComponent("blank-\(name)")
            try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)"/>"#.utf8).write(to: blank)
            let empty = try rasterize(blank)
            #expect(png.bytes > 5 * empty.bytes, "\(name) looks blank: \(png.bytes) bytes against \(empty.bytes) for an empty image")
        }
        let lock = try String(contentsOf: dir.appendingPathComponent("lock-screen.svg"), encoding: .utf8)
        for element in [">Recording</text>", ">1:05:09</text>", "Hello &lt;world&gt; &amp; friends", ">en-US</text>", #"<g id="stop">"#] {
            #expect(lock.contains(element), "lock screen lacks \(element)")
        }
        let compact = try String(contentsOf: dir.appendingPathComponent("island-compact.svg"), encoding: .utf8)
        #expect(compact.contains(">1h05</text>"))
    }

    @Test("paused and private: no stop button, no transcript")
    func pausedPrivate() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = run(["activity", "preview", "--out=\(dir.path)", "--state", "paused", "--text", "secret", "--private"])
        #expect(result.code == 0)
        let lock = try String(contentsOf: dir.appendingPathComponent("lock-screen.svg"), encoding: .utf8)
        #expect(!lock.contains("secret"))
        #expect(!lock.contains(#"<g id="stop">"#))
        #expect(lock.contains(">Paused</text>"))
        #expect(lock.contains(">1:30</text>"))
    }

    @Test("bad values are usage errors (exit 64)", arguments: [
        ["activity", "preview"],
        ["activity", "preview", "--out", "/tmp/x", "--state", "sleeping"],
        ["activity", "preview", "--out", "/tmp/x", "--elapsed", "-5"],
        ["activity", "preview", "--out", "/tmp/x", "--elapsed", "soon"],
        ["activity", "preview", "--out", "/tmp/x", "--elapsed", "nan"],
        ["activity", "preview", "--out", "/tmp/x", "--colour"],
        ["activity", "preview", "--out", "/tmp/x", "extra"],
        ["activity"],
    ])
    func usageErrors(arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: "))
    }

    @Test("--out naming a file, or a path through a file, says it is a file, not a folder (exit 1), and changes nothing")
    func outIsAFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: file)
        let onFile = run(["activity", "preview", "--out", file.path])
        #expect(onFile.code == 1)
        #expect(onFile.stdout == "")
        #expect(onFile.stderr == "error: cannot write \(file.path): it is a file, not a folder; give a folder\n")
        let inside = file.appendingPathComponent("previews").path
        let through = run(["activity", "preview", "--out", inside])
        #expect(through.code == 1)
        #expect(through.stderr == "error: cannot write \(inside): \(file.path) is a file, not a folder\n")
        #expect(try Data(contentsOf: file) == Data("keep".utf8))
    }

    @Test("--help prints the options and exits 0")
    func help() {
        let result = run(["activity", "preview", "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Draw the Live Activity"))
        #expect(result.stdout.contains("--private"))
    }

    @Test("the group's own --help lists its subcommands and exits 0; without a subcommand it is a usage error")
    func groupHelp() {
        let help = run(["activity", "--help"])
        #expect(help.code == 0)
        #expect(help.stdout == "USAGE: livetranscriber activity <subcommand>\n\nSUBCOMMANDS:\n"
            + "  activity preview  \(ActivityPreviewCommand.spec.abstract)\n\nSee 'livetranscriber activity preview --help'.\n")
        let bare = run(["activity"])
        #expect(bare.code == 64)
        #expect(bare.stderr == "error: 'activity' needs a subcommand: activity preview\n")
    }
}
