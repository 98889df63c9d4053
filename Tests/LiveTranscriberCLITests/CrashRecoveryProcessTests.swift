import CSndFile
import Foundation
import LiveTranscriberCore
import Testing
@testable import LiveTranscriberLinux
@testable import LiveTranscriberStore

/// The real binary killed with SIGKILL at the worst moments, then the next command.
@Suite("crash recovery of the real binary", .enabled(if: builtBinary != nil, "needs the built livetranscriber binary (swift build --build-tests)"))
struct CrashRecoveryProcessTests {
    /// goforward.raw, a second of silence, goforward.raw again, then 6 s of silence: about 12.6 s.
    static func slowInput(in library: TemporaryLibrary) throws -> String {
        let speech = try goForwardSamples()
        let path = library.url.appendingPathComponent("slow.wav")
        try WAVBytes.make(samples: speech + [Float](repeating: 0, count: 16_000) + speech + [Float](repeating: 0, count: 96_000),
                          rate: 16_000, channels: 1, encoding: .pcm16).write(to: path)
        return path.path
    }

    /// Starts the binary with `arguments` against `library`; stdin is a pipe that is never written.
    static func start(_ arguments: [String], library: TemporaryLibrary) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }.merging(["TZ": "UTC"]) { $1 }
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        return (process, output, input)
    }

    /// Polls until `condition` holds (at most 60 s).
    static func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// The next command recovers nothing and leaves no draft, recording or trash behind.
    static func expectNothingLeft(_ library: TemporaryLibrary) throws {
        let (recordings, stderr) = try list(library)
        #expect(recordings == [])
        #expect(stderr == "")
        #expect(library.draftFolders == [])
        #expect(library.recordingFolders == [])
        #expect(trashFolders(library) == [])
    }

    static func killHard(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    static func list(_ library: TemporaryLibrary) throws -> (recordings: [Recording], stderr: String) {
        let listed = library.run("list", "--json")
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        return (try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8)), listed.stderr)
    }

    static func trashFolders(_ library: TemporaryLibrary) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: library.url.appendingPathComponent("trash").path)) ?? []).sorted()
    }

    @Test("record --format flac killed with SIGKILL: recovered with the duration of the frames in the file, and the FLAC header says so")
    func killedFLACRecordingHasItsRealDuration() throws {
        let library = try TemporaryLibrary()
        let (process, output, _) = try Self.start(["record", "--input", try Self.slowInput(in: library), "--format", "flac"], library: library)
        let started = Date()
        try #require(readOutput(until: "go forward ten meters\n", in: output).hasPrefix("[0:00] go forward ten meters\n"))
        Thread.sleep(forTimeInterval: 1.5)
        let killedAfter = Date().timeIntervalSince(started)
        Self.killHard(process)

        let (recordings, stderr) = try Self.list(library)
        #expect(stderr.hasPrefix("note: recovered an interrupted recording: "))
        let recording = try #require(recordings.first)
        #expect(recordings.count == 1)
        #expect(recording.recovered)
        #expect(recording.audio == AudioDescription(format: "flac", sampleRate: 16_000, channels: 1))
        // The file now states its length; it is the duration kept, to the frame.
        let file = library.url.appendingPathComponent("recordings/\(recording.id)/audio.flac")
        var info = SF_INFO()
        let handle = try #require(sf_open(file.path, Int32(SFM_READ), &info))
        sf_close(handle)
        let counted = try #require(AudioFileMeasure.countFrames(file)).measurement.frames
        #expect(Int64(info.frames) == counted)
        #expect(recording.durationSeconds == Double(counted) / 16_000)
        #expect(recording.durationSeconds > 2.786 && recording.durationSeconds <= killedAfter, "\(recording.durationSeconds) s")
        // And every place that shows it agrees.
        let markdown = library.run("export", recording.id, "--format", "md")
        #expect(markdown.stdout.contains(ElapsedTimeFormat.clock(recording.durationSeconds)))
        #expect(!markdown.stdout.contains("99999"))
    }

    @Test("record --discard killed with SIGKILL: nothing is recovered, nothing is kept")
    func killedDiscardIsNeverRecovered() throws {
        let library = try TemporaryLibrary()
        let (process, output, _) = try Self.start(["record", "--input", try Self.slowInput(in: library), "--discard"], library: library)
        try #require(readOutput(until: "go forward ten meters\n", in: output).hasPrefix("[0:00] go forward ten meters\n"))
        Self.killHard(process)
        #expect(library.draftFolders.count == 1)

        try Self.expectNothingLeft(library)
    }

    @Test("import killed with SIGKILL half-way: nothing of the file is kept, and the import can be run again")
    func killedImportLeavesNothing() throws {
        let library = try TemporaryLibrary()
        // 60 s of speech and silence: long enough to kill it half-way at --speed max.
        let speech = try goForwardSamples()
        let long = (0..<10).flatMap { _ in speech + [Float](repeating: 0, count: 16_000 * 3) }
        let path = library.url.appendingPathComponent("long talk.wav")
        try WAVBytes.make(samples: long, rate: 16_000, channels: 1, encoding: .pcm16).write(to: path)
        let (process, _, _) = try Self.start(["import", path.path], library: library)
        let drafts = library.url.appendingPathComponent("drafts")
        Self.waitUntil {
            guard let id = library.draftFolders.first(where: { !$0.hasPrefix(".") }) else { return false }
            let audio = drafts.appendingPathComponent("\(id)/audio.wav").path
            return ((try? FileManager.default.attributesOfItem(atPath: audio)[.size] as? Int) ?? 0) > 200_000
        }
        Self.killHard(process)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(library.draftFolders.count == 1)

        let (recordings, stderr) = try Self.list(library)
        #expect(recordings == [])
        #expect(stderr == "")
        #expect(library.draftFolders == [])
        #expect(Self.trashFolders(library) == [])

        let again = library.run("import", path.path, "--json")
        #expect(again.exitCode == 0, "\(again.stderr)")
        let imported = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(again.stdout.utf8))
        #expect(imported.map(\.recording.durationSeconds) == [Double(long.count) / 16_000])
    }

    @Test("a recording killed before any audio arrived (a silent pipe) leaves no recording, not an empty 0:00 one")
    func killedBeforeAudioLeavesNothing() throws {
        let library = try TemporaryLibrary()
        let (process, _, input) = try Self.start(["record", "--input", "-", "--rate", "16000"], library: library)
        let drafts = library.url.appendingPathComponent("drafts")
        Self.waitUntil {
            guard let id = library.draftFolders.first else { return false }
            return FileManager.default.fileExists(atPath: drafts.appendingPathComponent("\(id)/audio.wav").path)
        }
        Thread.sleep(forTimeInterval: 0.3)
        Self.killHard(process)
        try? input.fileHandleForWriting.close()
        #expect(library.draftFolders.count == 1)

        try Self.expectNothingLeft(library)
    }

    @Test("a damaged draft.json after SIGKILL: recover keeps the audio and the segments under the default name and says what was lost")
    func damagedManifestStillRecoversTheAudio() throws {
        let library = try TemporaryLibrary()
        let (process, output, _) = try Self.start(["record", "--input", try Self.slowInput(in: library), "--name", "Standup", "--tags", "work"],
                                                  library: library)
        try #require(readOutput(until: "go forward ten meters\n", in: output).hasPrefix("[0:00] go forward ten meters\n"))
        Thread.sleep(forTimeInterval: 0.6)
        Self.killHard(process)
        let id = try #require(library.draftFolders.first)
        try Data("{\"id\": \"\(id)\", \"createdAt\": tr".utf8)
            .write(to: library.url.appendingPathComponent("drafts/\(id)/draft.json"))

        let recovered = library.run("recover")
        #expect(recovered.exitCode == 0)
        let recording = try library.store().resolve(id)
        let name = "Recording " + LibraryFormat.dateTime(LibraryStore.creationDate(ofDraft: id, folder: library.url), timeZone: TimeZone(identifier: "UTC")!)
        #expect(recording.name == name)
        #expect(recording.tags == [])
        #expect(recording.language == "und")
        #expect(recording.recovered)
        #expect(recording.audio == AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        let clock = ElapsedTimeFormat.clock(recording.durationSeconds)
        // The audio after the final (the kill came 0.6 s after it was printed) is named by the shared rule.
        let tail = RecoveryHint.hint(id: id, durationSeconds: recording.durationSeconds, segments: try library.store().transcript(of: id))
        #expect(recovered.stdout == "Recovered \(id) '\(name)' (\(clock), 1 segment)\(tail).\n")
        #expect(recovered.stderr == "note: the interrupted recording \(id): its draft.json was damaged, so its name, tags and language were lost; the audio (\(clock)) and 1 final segment were recovered under the default name.\n")
        let wav = try Data(contentsOf: library.url.appendingPathComponent("recordings/\(id)/audio.wav"))
        #expect(recording.durationSeconds == Double(try WAVHeaderRepair.repair(wav).layout.dataSize) / 32_000)
        #expect(recording.durationSeconds >= 2.786)
        #expect(try library.store().transcript(of: id).map(\.text) == ["go forward ten meters"])
        #expect(library.draftFolders == [])
        #expect(Self.trashFolders(library) == [])
    }
}

extension TemporaryLibrary {
    /// The library opened in this process.
    func store() throws -> LibraryStore { try LibraryStore(directory: url, timeZone: TimeZone(identifier: "UTC")!) }
}
