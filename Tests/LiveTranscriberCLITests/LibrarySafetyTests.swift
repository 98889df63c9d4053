import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
@testable import LiveTranscriberStore
import Testing

/// A small tmpfs mounted for one test: a disk that really fills up, or really is read-only.
final class SmallDisk {
    let url: URL

    /// True when this process may mount (root with CAP_SYS_ADMIN); the tests that need it are skipped otherwise.
    static let canMount: Bool = {
        guard geteuid() == 0, let disk = try? SmallDisk(megabytes: 1) else { return false }
        _ = disk
        return true
    }()

    init(megabytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lt-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard Self.shell("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(url.path)'") == 0 else {
            try? FileManager.default.removeItem(at: url)
            throw CocoaError(.featureUnsupported)
        }
    }

    deinit {
        _ = Self.shell("umount '\(url.path)'")
        try? FileManager.default.removeItem(at: url)
    }

    func remountReadOnly() { #expect(Self.shell("mount -o remount,ro '\(url.path)'") == 0) }

    /// Writes a file until the disk refuses another byte.
    func fill() {
        let filler = url.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: filler.path) else { return }
        defer { try? handle.close() }
        let block = Data(count: 65_536)
        while (try? handle.write(contentsOf: block)) != nil {}
        while (try? handle.write(contentsOf: Data(count: 512))) != nil {}
        while (try? handle.write(contentsOf: Data(count: 1))) != nil {}
    }

    /// Takes all free space but `kilobytes` with a file that is really allocated.
    func leave(kilobytes: Int) {
        var status = statvfs()
        statvfs(url.path, &status)
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        #expect(Self.shell("fallocate -l \(free - kilobytes * 1024) '\(url.path)/filler'") == 0)
    }

    /// Removes what `fill` and `leave` wrote.
    func free() { try? FileManager.default.removeItem(at: url.appendingPathComponent("filler")) }

    @discardableResult
    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>/dev/null"]
        try? process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Runs the real binary with the library at `home`.
func runIn(_ home: URL, _ arguments: String...) throws -> CommandResult {
    try runBinary(arguments, environment: ["LIVETRANSCRIBER_HOME": home.path, "TZ": "UTC", "LIVETRANSCRIBER_ENGINE": "pocketsphinx"])
}

@Suite("The library on read-only media, on a full disk, with a busy index",
       .enabled(if: builtBinary != nil, "needs the built livetranscriber binary (swift build --build-tests)"))
struct LibrarySafetyTests {
    /// Imports goforward.raw as "Go forward" into the library at `home`; returns its id.
    func importSpeech(into home: URL) throws -> String {
        let result = try runIn(home, "record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max",
                               "--name", "Go forward", "--tags", "demo", "--json")
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(result.stdout.utf8)).recording.id
    }

    @Test("a library folder that cannot be looked into is said to be unreadable, not shown as empty, by every command that reads it")
    func unreadableLibrary() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("lt-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // stat(2) of recordings/ fails as it does for a user without search permission on the
        // folder (EACCES), with an error other than "no such file": here a symbolic link to itself
        // (ELOOP), which fails for root too.
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent("recordings").path, withDestinationPath: "recordings")
        for command in [["list"], ["search", "meters"], ["show", "latest"], ["export", "latest", "--format", "txt"], ["recover"], ["reindex"]] {
            let result = try runBinary(command, environment: ["LIVETRANSCRIBER_HOME": home.path, "LIVETRANSCRIBER_ENGINE": "pocketsphinx"])
            #expect(result.exitCode == 1, "\(command)")
            #expect(result.stdout == "", "\(command)")
            #expect(result.stderr == "error: the library in \(home.path) cannot be read: Too many levels of symbolic links\n", "\(command)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["recordings"])
    }

    @Test("on read-only media list, show, search and export work, and rename says the library is read-only",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func readOnlyLibrary() throws {
        let disk = try SmallDisk(megabytes: 8)
        let home = disk.url.appendingPathComponent("library")
        let id = try importSpeech(into: home)
        disk.remountReadOnly()

        let list = try runIn(home, "list", "--json")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(list.stderr == "")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.id) == [id])
        let show = try runIn(home, "show", id, "--json")
        #expect(try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(show.stdout.utf8)).segments.map(\.text)
            == ["go forward ten meters"])
        let search = try runIn(home, "search", "meters", "--json")
        #expect(search.exitCode == 0, "\(search.stderr)")
        #expect(search.stdout.contains(id))
        let export = try runIn(home, "export", id, "--format", "txt")
        #expect(export.exitCode == 0)
        #expect(export.stdout.contains("go forward ten meters"))

        let rename = try runIn(home, "rename", id, "Other")
        #expect(rename.exitCode == 1)
        #expect(rename.stderr == "error: the library at \(home.path) is read-only (read-only media): list, show, search and export work, but nothing can be changed or recorded\n")
        let record = try runIn(home, "record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max")
        #expect(record.exitCode == 1)
        #expect(record.stderr.hasSuffix("is read-only (read-only media): list, show, search and export work, but nothing can be changed or recorded\n"))
    }

    @Test("on read-only media without a usable index, list and search read the folders",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func readOnlyLibraryWithoutIndex() throws {
        let disk = try SmallDisk(megabytes: 8)
        let home = disk.url.appendingPathComponent("library")
        let id = try importSpeech(into: home)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: home.appendingPathComponent("library.sqlite").path + suffix) }
        disk.remountReadOnly()

        let list = try runIn(home, "list", "--json")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.name) == ["Go forward"])
        let search = try runIn(home, "search", "demo", "--json")
        #expect(search.exitCode == 0, "\(search.stderr)")
        #expect(search.stdout.contains(id))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("library.sqlite").path))
    }

    @Test("on a full disk list and search work, delete --purge frees space, and a failed import leaves nothing",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func fullDisk() throws {
        let disk = try SmallDisk(megabytes: 8)
        let home = disk.url.appendingPathComponent("library")
        let first = try importSpeech(into: home)
        let second = try importSpeech(into: home)
        disk.fill()

        let list = try runIn(home, "list", "--json")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.id).sorted() == [first, second].sorted())
        #expect(try runIn(home, "search", "forward").exitCode == 0)

        // A failed import leaves no folder, in recordings/ or drafts/, and nothing in the index.
        let failed = try runIn(home, "import", Speech.librivox)
        #expect(failed.exitCode == 1)
        #expect(failed.stderr.contains("error: "))
        let recordings = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("recordings").path).sorted()
        #expect(recordings == [first, second].sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("drafts").path) == [])

        let purge = try runIn(home, "delete", first, "--purge")
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "Deleted \(first) 'Go forward' for good.\n")
        let after = try runIn(home, "list", "--json")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(after.stdout.utf8)).map(\.id) == [second])
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("recordings/\(first)").path))
    }

    /// 30 s of speech: goforward.raw and silence, ten times.
    func longSpeech(in folder: URL) throws -> String {
        let speech = try goForwardSamples()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("long.wav").path
        try WAVBytes.make(samples: (0..<10).flatMap { _ in speech + [Float](repeating: 0, count: 48_000 - speech.count) },
                          rate: 16_000, channels: 1, encoding: .pcm16).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("when the disk fills during record, the error says what was kept and how to get it back; recover then saves it",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func diskFillsDuringRecord() throws {
        let disk = try SmallDisk(megabytes: 8)
        let home = disk.url.appendingPathComponent("library")
        let kept = try importSpeech(into: home)
        let input = try longSpeech(in: FileManager.default.temporaryDirectory.appendingPathComponent("lt-long-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: input).deletingLastPathComponent().path) }
        disk.leave(kilobytes: 400)

        let record = try runIn(home, "record", "--input", input, "--speed", "max", "--name", "Filled")
        #expect(record.exitCode == 1)
        let drafts = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("drafts").path)
        let id = try #require(drafts.first)
        #expect(drafts.count == 1)
        let pattern = try Regex("^error: could not save recording \(id): the disk holding the library is full\\. What was written is kept: its audio \\((0:[01][0-9])\\) and ([0-9]+) final segments? are kept in \(home.path)/drafts/\(id)\\. Once the cause is fixed \\(free some space\\), run 'livetranscriber recover' to save it\\.\n$")
        let match = try #require(record.stderr.wholeMatch(of: pattern), "\(record.stderr)")
        let segments = Int(match.output[2].substring ?? "") ?? -1
        #expect(segments >= 1)

        // Still full: each command tries to recover the draft and cannot, and reads keep working
        // from the folders (the index cannot be brought in step on a full disk).
        for _ in 0..<2 {
            let list = try runIn(home, "list", "--json")
            #expect(list.exitCode == 0, "\(list.stderr)")
            #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.id) == [kept])
        }
        #expect(try runIn(home, "show", kept).exitCode == 0)
        #expect(try runIn(home, "search", "forward").exitCode == 0)

        disk.free()
        let recovered = try runIn(home, "recover", "--json")
        #expect(recovered.exitCode == 0, "\(recovered.stderr)")
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(recovered.stdout.utf8))
        #expect(recordings.map(\.id) == [id])
        #expect(recordings.map(\.name) == ["Filled"])
        let show = try runIn(home, "show", id, "--json")
        #expect(try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(show.stdout.utf8)).segments.count == segments)
    }

    @Test("an import that fills the disk leaves no folder anywhere and nothing in the index; a retry after freeing space adds one",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func importFillsDisk() throws {
        let disk = try SmallDisk(megabytes: 8)
        let home = disk.url.appendingPathComponent("library")
        let first = try importSpeech(into: home)
        let input = try longSpeech(in: FileManager.default.temporaryDirectory.appendingPathComponent("lt-long-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: input).deletingLastPathComponent().path) }
        disk.leave(kilobytes: 400)

        let failed = try runIn(home, "import", input)
        #expect(failed.exitCode == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("recordings").path) == [first])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("drafts").path) == [])
        let list = try runIn(home, "list", "--json")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.id) == [first])

        disk.free()
        let again = try runIn(home, "import", input, "--json")
        #expect(again.exitCode == 0, "\(again.stderr)")
        let after = try runIn(home, "list", "--json")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(after.stdout.utf8)).count == 2)
    }

    @Test("a rename or tag against an index another process holds fails after 5 s and changes nothing, not even the generation; killed while waiting, nothing either")
    func busyIndex() throws {
        let library = try TemporaryLibrary()
        let id = try importSpeech(into: library.url)
        let metadata = library.url.appendingPathComponent("recordings/\(id)/metadata.json")
        let before = try Data(contentsOf: metadata)
        let generationFile = library.url.appendingPathComponent("library.generation")
        let generation = try String(contentsOf: generationFile, encoding: .utf8)
        let holder = try SQLiteDatabase(path: library.url.appendingPathComponent("library.sqlite").path)
        try holder.execute("BEGIN EXCLUSIVE")

        let rename = try runIn(library.url, "rename", id, "Renamed")
        #expect(rename.exitCode == 1)
        #expect(rename.stderr == "error: the library's index is busy: another process has held it for more than 5 seconds. Nothing was changed; try again.\n")
        let tag = try runIn(library.url, "tag", id, "--add", "later")
        #expect(tag.exitCode == 1)
        #expect(tag.stderr == rename.stderr)
        #expect(try Data(contentsOf: metadata) == before)
        // Refused, they leave the generation as it was: the next command trusts the index at once.
        #expect(try String(contentsOf: generationFile, encoding: .utf8) == generation)

        // A rename killed with SIGKILL while it waits for the index changes nothing either.
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = ["rename", id, "Killed"]
        process.environment = library.environment.merging(sanitizerEnvironment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Data(contentsOf: metadata) == before)
        try holder.execute("ROLLBACK")

        let list = try runIn(library.url, "list", "--json")
        #expect(try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(list.stdout.utf8)).map(\.name) == ["Go forward"])
        #expect(try runIn(library.url, "search", "Renamed").stdout.contains(id) == false)
        // Once the index is free, a change lands in the files and the index together.
        #expect(try runIn(library.url, "rename", id, "Renamed").exitCode == 0)
        let renamed = try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: metadata))
        #expect(renamed.name == "Renamed")
        #expect(try runIn(library.url, "search", "Renamed", "--json").stdout.contains(id))
    }

    @Test("export, activity preview and record --activity-feed refuse paths inside the library, however they are spelled (a usage error, exit 64)")
    func outputInsideLibraryIsRefused() throws {
        let library = try TemporaryLibrary()
        let id = try importSpeech(into: library.url)
        let metadata = library.url.appendingPathComponent("recordings/\(id)/metadata.json")
        let before = try Data(contentsOf: metadata)
        let elsewhere = try TemporaryLibrary()
        let link = elsewhere.url.appendingPathComponent("lib")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: library.url)
        let spellings = [
            metadata.path,
            library.url.appendingPathComponent("recordings/../recordings/\(id)/transcript.json").path,
            link.appendingPathComponent("recordings/\(id)/metadata.json").path,
            library.url.appendingPathComponent("new-folder/out.txt").path,
        ]
        for path in spellings {
            let result = library.run("export", id, "--format", "json", "--output", path)
            #expect(result.exitCode == 64)
            #expect(result.stderr == "error: cannot write \(path): it is inside the library (\(library.url.path)); write it somewhere else\n")
        }
        #expect(try Data(contentsOf: metadata) == before)
        let reindexed = library.run("reindex")
        #expect(reindexed.exitCode == 0)
        #expect(library.run("show", id).exitCode == 0)

        let preview = library.run("activity", "preview", "--out", library.url.appendingPathComponent("recordings").path)
        #expect(preview.exitCode == 64)
        #expect(preview.stderr.hasSuffix("it is inside the library (\(library.url.path)); write it somewhere else\n"))
        let feed = library.url.appendingPathComponent("recordings/\(id)/metadata.json").path
        let record = library.run("record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--activity-feed", feed)
        #expect(record.exitCode == 64)
        #expect(record.stderr == "error: cannot write \(feed): it is inside the library (\(library.url.path)); write it somewhere else\n")
        #expect(try Data(contentsOf: metadata) == before)
        #expect(library.recordingFolders == [id])

        let outside = elsewhere.url.appendingPathComponent("out.txt").path
        #expect(library.run("export", id, "--format", "txt", "--output", outside).exitCode == 0)
    }

    @Test("when stdout fails, stderr says what was saved and as which id: record to /dev/full")
    func stdoutToDevFull() throws {
        let library = try TemporaryLibrary()
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = ["record", "--input", Speech.goForward, "--rate", "16000", "--speed", "max", "--name", "Full"]
        process.environment = library.environment.merging(sanitizerEnvironment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let id = try #require(library.recordingFolders.first)
        #expect(process.terminationStatus == 1)
        #expect(stderr == "error: could not write to standard output: No space left on device\n"
            + "note: the recording was saved as \(id) ('Full', 0:02); see it with 'livetranscriber show \(id)'.\n")
    }

    @Test("importing several files on a nearly full disk stops at the first that finds no room, as its message says",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func importStopsWhenFull() throws {
        let disk = try SmallDisk(megabytes: 5)
        let home = disk.url.appendingPathComponent("library")
        #expect(try runIn(home, "list").exitCode == 0)
        // The five LibriVox files joined (29 s, 919 KB of WAV), kept outside the small disk.
        let folder = try TemporaryLibrary()
        let demo = folder.url.appendingPathComponent("demo.wav").path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        #expect(SmallDisk.shell("'\(root.path)/scripts/make-demo-audio.sh' '\(demo)'") == 0)
        disk.leave(kilobytes: 850)

        let run = try runIn(home, "import", "--again", demo, Speech.librivox)
        #expect(run.exitCode == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasSuffix("nothing else can be changed until there is room\n"
            + "Import stopped: the disk is full; 0 imported, 1 file not tried. Free some space, then import it again.\n"), "\(run.stderr)")
        #expect(try runIn(home, "list", "--json").stdout == "[\n\n]\n")
    }
}

/// Whether a library can be changed, as looked up before work whose result it would keep.
@Suite("The library's write block, looked up now")
struct LibraryWriteBlockTests {
    @Test("the rule on statvfs and access: read-only media or no permission, no free block, no free inode where inodes are counted", arguments: [
        (true, true, (UInt64(100), UInt64(10), UInt64(5)), LibraryWriteBlock?.some(.readOnly(path: "/lib", media: true))),
        (false, false, (100, 10, 5), .readOnly(path: "/lib", media: false)),
        (false, true, (0, 10, 5), .diskFull(path: "/lib")),
        (false, true, (100, 10, 0), .diskFull(path: "/lib")),
        (false, true, (100, 0, 0), nil),  // btrfs counts no inodes: 0 of 0 is not a full disk
        (false, true, (100, 10, 5), nil),
    ])
    func rule(readOnlyMedia: Bool, writable: Bool, space: (UInt64, UInt64, UInt64), block: LibraryWriteBlock?) {
        #expect(IndexKeeper.writeBlock(path: "/lib", readOnlyMedia: readOnlyMedia, writable: writable,
                                       space: (freeBlocks: space.0, inodes: space.1, freeInodes: space.2)) == block)
    }

    @Test("a library folder not made yet is judged by the nearest folder above it; on read-only media it is read-only, by its own path",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func missingFolder() throws {
        let disk = try SmallDisk(megabytes: 1)
        let library = disk.url.appendingPathComponent("not/yet/library")
        #expect(LibraryStore.writeBlock(at: library) == nil)
        disk.remountReadOnly()
        #expect(LibraryStore.writeBlock(at: library) == .readOnly(path: library.path, media: true))
    }
}
