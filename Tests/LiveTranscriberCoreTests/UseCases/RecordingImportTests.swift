import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// The import use case every front end calls: named from the file, refused before transcribing
/// when its audio is in the library, and the engine settings that make the save check again.
@Suite("Importing a file")
struct RecordingImportTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let digest = "sha256:" + String(repeating: "5a", count: 32)

    static func library(withDigest digest: String?) -> InMemoryRecordingStore {
        InMemoryRecordingStore(recordings: [Recording(
            id: "20261129-204112-aaaa", name: "Standup", createdAt: t0, durationSeconds: 3, language: "en-US", tags: [],
            audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1), audioDigest: digest)])
    }

    @Test("a file whose audio is in the library is refused before anything is transcribed, naming the recording that has it")
    func refusesDuplicate() {
        #expect(throws: LibraryError.alreadyInLibrary(id: "20261129-204112-aaaa", name: "Standup")) {
            try RecordingImport(file: URL(fileURLWithPath: "/in/Standup copy.flac"), refusingDuplicates: true,
                                library: Self.library(withDigest: Self.digest), contentDigest: { _ in Self.digest })
        }
    }

    @Test("a library that cannot be changed is refused before the file is read (no digest), even with --again")
    func refusesReadOnly() {
        let library = Self.library(withDigest: nil)
        library.writeBlock = .diskFull(path: "/home/me/.local/share/livetranscriber")
        for again in [false, true] {
            var digested = false
            #expect(throws: LibraryError.readOnly(.diskFull(path: "/home/me/.local/share/livetranscriber"))) {
                try RecordingImport(file: URL(fileURLWithPath: "/in/Talk.flac"), refusingDuplicates: !again,
                                    library: library, contentDigest: { _ in digested = true; return Self.digest })
            }
            #expect(!digested)
        }
    }

    @Test("when that recording's audio file is gone, the refusal says so in the shared sentence")
    func refusesDuplicateWithMissingAudio() {
        let library = Self.library(withDigest: Self.digest)
        library.removeAudio(of: "20261129-204112-aaaa")
        let refusal = #expect(throws: LibraryError.self) {
            try RecordingImport(file: URL(fileURLWithPath: "/in/Standup copy.flac"), refusingDuplicates: true,
                                library: library, contentDigest: { _ in Self.digest })
        }
        #expect(refusal == .alreadyInLibrary(id: "20261129-204112-aaaa", name: "Standup", audioMissing: true))
        #expect(refusal?.description == "it is already in the library as 20261129-204112-aaaa 'Standup', "
                + "but its audio file is missing, so it cannot be played or transcribed again")
        #expect(MissingAudioFile(id: "20261129-204112-aaaa", name: "Stand\u{1B}up").description
                == "20261129-204112-aaaa 'Stand\\u{1B}up': its audio file is missing, so it cannot be played or transcribed again")
    }

    @Test("with duplicates allowed, or new audio, the plan names the recording from the file and carries the digest to the save")
    func plan() throws {
        let again = try RecordingImport(file: URL(fileURLWithPath: "/in/ Weekly\tsync .m4a"), refusingDuplicates: false,
                                        library: Self.library(withDigest: Self.digest), contentDigest: { _ in Self.digest })
        #expect(again.name == "Weekly sync")
        #expect(again.imported == ImportedAudio(digest: Self.digest, refusingDuplicates: false))
        let fresh = try RecordingImport(file: URL(fileURLWithPath: "/in/talk.wav"), refusingDuplicates: true,
                                        library: Self.library(withDigest: "sha256:00"), contentDigest: { _ in Self.digest })
        #expect(fresh.imported == ImportedAudio(digest: Self.digest, refusingDuplicates: true))
        let settings = fresh.engineSettings(language: "de-DE", tags: ["talks"], fileFormat: .flac, timeZone: TimeZone(identifier: "UTC")!)
        #expect(settings.name == "talk")
        #expect(settings.language == "de-DE")
        #expect(settings.tags == ["talks"])
        #expect(settings.fileFormat == .flac)
        #expect(settings.keepIfInterrupted == false)
        #expect(settings.imported == fresh.imported)
    }

    @Test("a platform with no digest for the file still imports it, with nothing to check")
    func noDigest() throws {
        let plan = try RecordingImport(file: URL(fileURLWithPath: "/in/talk.wav"), refusingDuplicates: true,
                                       library: Self.library(withDigest: Self.digest), contentDigest: { _ in nil })
        #expect(plan.imported == nil)
    }

    @Test("an import run through the engine saves with the file's digest, and a second run of the same file is refused at the save, never reported saved")
    func throughTheEngine() throws {
        let store = InMemoryRecordingStore()
        let plan = try RecordingImport(file: URL(fileURLWithPath: "/in/talk.wav"), refusingDuplicates: true,
                                       library: store, contentDigest: { _ in Self.digest })
        var phases: [RecordingSession.Phase] = []
        /// One engine run of 1 s of audio, as a front end wires it for an import.
        func run() throws -> RecordingEngine<InMemoryRecordingStore>.Outcome {
            phases = []
            let services = RecordingEngineServices(
                store: store, makeRecognizer: { _ in ScriptedRecognizer(cues: []) },
                makeResampler: { _, _, _ in preconditionFailure("no resampling") },
                makeWriter: { _, format, _ in MemoryAudioFileWriter(format: format) },
                activity: RecordingActivityClient(), clock: ManualClock(start: Self.t0))
            let engine = RecordingEngine(sourceFormat: AudioFormat(sampleRate: 16_000, channels: 1),
                                         settings: plan.engineSettings(language: "en-US"), services: services) { event in
                if case .phaseChanged(let phase) = event { phases.append(phase) }
            }
            try engine.start()
            try engine.receive(AudioBuffer(samples: [Float](repeating: 0.25, count: 16_000), channels: 1))
            try engine.stop()
            return try engine.finish(keep: true)
        }
        guard case .saved(let recording, _) = try run() else { Issue.record("not saved"); return }
        #expect(recording.name == "talk")
        #expect(recording.audioDigest == Self.digest)
        #expect(phases == [.preparing, .recording, .stopping, .draft, .saved])
        // Both runs got past the first check (planned before either saved): the save refuses the second.
        #expect(throws: LibraryError.alreadyInLibrary(id: recording.id, name: "talk")) { try run() }
        #expect(phases == [.preparing, .recording, .stopping, .draft])
        #expect(try store.list().map(\.id) == [recording.id])
        #expect(store.draftIDs.isEmpty)
    }
}
