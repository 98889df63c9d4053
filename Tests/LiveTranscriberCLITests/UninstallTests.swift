import Foundation
import LiveTranscriberTestSupport
import Testing

/// `make uninstall` removes what `make install` put there, the folders it created included, and
/// nothing else. The folders are made by `make install-folders`, the step `make install` runs
/// (the build before it takes minutes, so the files it copies are stood in for here).
@Suite("make uninstall")
struct UninstallTests {
    /// The package's root folder (this file is Tests/LiveTranscriberCLITests/UninstallTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files `make install` puts under the prefix.
    static let installedFiles = [
        "bin/livetranscriber", "lib/livetranscriber/livetranscriber-full", "lib/livetranscriber/libwhisper.so.1",
        "lib/livetranscriber/libggml.so.0", "lib/livetranscriber/libggml-base.so.0", "lib/livetranscriber/libggml-cpu.so.0",
        "share/livetranscriber/models/ggml-base.bin", "share/livetranscriber/models/ggml-silero-vad.bin",
        "lib/livetranscriber/libsherpa-onnx-c-api.so", "lib/livetranscriber/libonnxruntime.so",
        "share/livetranscriber/models/speaker-segmentation.onnx", "share/livetranscriber/models/speaker-embedding.onnx",
        "share/man/man1/livetranscriber.1", "share/bash-completion/completions/livetranscriber",
        "share/zsh/site-functions/_livetranscriber", "share/fish/vendor_completions.d/livetranscriber.fish",
    ]

    static func make(_ arguments: [String]) throws -> (code: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.arguments = ["--no-print-directory", "-C", root.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Installs the folders under `prefix` (twice: a second install forgets nothing) and the files.
    static func install(_ prefix: URL) throws {
        for _ in 0..<2 {
            let folders = try make(["install-folders", "PREFIX=\(prefix.path)"])
            try #require(folders.code == 0, "\(folders.output)")
        }
        for file in installedFiles {
            try Data("x".utf8).write(to: prefix.appendingPathComponent(file))
        }
    }

    static func contents(of folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
    }

    @Test("uninstall removes the files and every folder install created, the prefix and its missing parents included")
    func removesWhatInstallCreated() throws {
        let scratch = try TestFolders.make("lt-uninstall")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("new/prefix")
        try Self.install(prefix)
        let uninstalled = try Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstalled.code == 0)
        #expect(uninstalled.output.hasSuffix("rmdir \(prefix.path)\nrmdir \(scratch.path)/new\nRemoved livetranscriber from \(prefix.path).\n"))
        #expect(Self.contents(of: scratch) == [])
    }

    @Test("uninstall keeps folders that were there before install and folders holding other programs' files")
    func keepsWhatWasThere() throws {
        let prefix = try TestFolders.make("lt-uninstall-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        for folder in ["bin", "share/man/man1"] {
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Self.install(prefix)
        try Data("other".utf8).write(to: prefix.appendingPathComponent("share/zsh/site-functions/_other"))
        let uninstalled = try Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstalled.code == 0)
        #expect(Self.contents(of: prefix) == ["bin", "share", "share/man", "share/man/man1", "share/zsh", "share/zsh/site-functions",
                                              "share/zsh/site-functions/_other"])
    }

    @Test("uninstall leaves a file the user added among the models or engine libraries, and the folders holding it")
    func keepsUserFiles() throws {
        let prefix = try TestFolders.make("lt-uninstall-user")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try Self.install(prefix)
        try Data("mine".utf8).write(to: prefix.appendingPathComponent("share/livetranscriber/models/ggml-small.bin"))
        let uninstalled = try Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstalled.code == 0)
        #expect(Self.contents(of: prefix) == ["share", "share/livetranscriber", "share/livetranscriber/models",
                                              "share/livetranscriber/models/ggml-small.bin"])
    }

    @Test("a PREFIX with a space is refused in one line by install and uninstall, and nothing is removed")
    func refusesSpaces() throws {
        let scratch = try TestFolders.make("lt-uninstall-space")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let canary = scratch.appendingPathComponent("canary")
        try FileManager.default.createDirectory(at: canary, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: canary.appendingPathComponent("important.txt"))
        for target in ["uninstall", "install-folders"] {
            let refused = try Self.make([target, "PREFIX=\(canary.path) x"])
            #expect(refused.code == 2)
            #expect(refused.output.hasPrefix("error: PREFIX and DESTDIR cannot contain spaces or tabs ('\(canary.path) x')"))
        }
        #expect(Self.contents(of: scratch) == ["canary", "canary/important.txt"])
    }
}
