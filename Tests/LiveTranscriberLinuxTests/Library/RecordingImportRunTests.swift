import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The import use case every front end runs (`import`, `serve`'s upload; the app calls its two
/// halves), against the SQLite library and the in-memory store alike, with the real speaker
/// diarizer for the labelling step.
@Suite("Import use case, on both stores")
struct RecordingImportRunTests {
    typealias Kind = RecordingStoreConformanceTests.Kind

    static let digest = "sha256:" + String(repeating: "7c", count: 32)
    static let file = URL(fileURLWithPath: "/in/Weekly sync.flac")
    static let words = [TranscriptSegment(text: "imported words", startSeconds: 0, endSeconds: 4)]

    /// A fresh store of `kind` and an engine stand-in that saves `words` through its drafts the
    /// way the recording engine does with the plan's settings (name, digest, duplicate check),
    /// writing a few bytes as the audio where the store has a folder.
    static func with(_ kind: Kind, _ body: (any RecordingStore, _ engine: (RecordingImport) throws -> RecordingWithTranscript) throws -> Void) throws {
        try RecordingStoreConformanceTests.with(kind) { store, _ in
            var count = 0
            try body(store) { plan in
                count += 1
                let settings = plan.engineSettings(language: "en-US")
                let recording: Recording
                if let library = store as? LibraryStore {
                    recording = try save(settings, id: "r\(count)", into: library)
                } else {
                    recording = try save(settings, id: "r\(count)", into: store as! InMemoryRecordingStore)
                }
                let audio = try store.audioFile(of: recording.id)
                if FileManager.default.fileExists(atPath: audio.deletingLastPathComponent().path) {
                    try Data("RIFF".utf8).write(to: audio)
                }
                return RecordingWithTranscript(recording: recording, segments: try store.transcript(of: recording.id))
            }
        }
    }

    static func save<S: RecordingDraftStore>(_ settings: RecordingEngineSettings, id: String, into store: S) throws -> Recording {
        let draft = try store.createDraft(id: id, createdAt: RecordingStoreConformanceTests.t0, language: settings.language,
                                          audio: RecordingStoreConformanceTests.mono, name: settings.name, tags: settings.tags,
                                          keepIfInterrupted: settings.keepIfInterrupted)
        for segment in words { try store.appendToJournal(segment, draft: draft) }
        return try store.saveDraft(draft, name: settings.name, tags: settings.tags, location: nil, durationSeconds: 4,
                                   segments: words, encoding: nil, imported: settings.imported)
    }

    static func run(_ store: any RecordingStore, again: Bool = false, speakers: SpeakerLabelling? = nil,
                    _ engine: (RecordingImport) throws -> RecordingWithTranscript?) throws -> RecordingImport.Outcome {
        try RecordingImport.run(file: file, refusingDuplicates: !again, library: store, contentDigest: { _ in digest },
                                speakers: speakers, transcribe: engine)
    }

    static func imported(_ outcome: RecordingImport.Outcome) -> RecordingImport.Imported? {
        if case .imported(let imported) = outcome { return imported }
        return nil
    }

    @Test("saves the file named after it with its digest; without speakers asked, nothing more", arguments: Kind.allCases)
    func imports(kind: Kind) throws {
        try Self.with(kind) { store, engine in
            var planned: RecordingImport?
            let outcome = try Self.run(store) { plan in planned = plan; return try engine(plan) }
            #expect(planned?.name == "Weekly sync")
            #expect(planned?.imported == ImportedAudio(digest: Self.digest, refusingDuplicates: true))
            let imported = try #require(Self.imported(outcome))
            #expect(imported.saved.recording.name == "Weekly sync")
            #expect(imported.saved.recording.audioDigest == Self.digest)
            #expect(imported.saved.segments == Self.words)
            #expect(imported.speakers == nil)
            #expect(imported.speakerFailure == nil)
        }
    }

    @Test("audio already in the library comes back as alreadyInLibrary before the engine runs; --again imports it", arguments: Kind.allCases)
    func duplicate(kind: Kind) throws {
        try Self.with(kind) { store, engine in
            _ = try Self.run(store, engine)
            var ran = false
            let outcome = try Self.run(store) { plan in ran = true; return try engine(plan) }
            guard case .alreadyInLibrary(let id, let name, let audioMissing) = outcome else {
                Issue.record("expected alreadyInLibrary, got \(outcome)")
                return
            }
            #expect((id, name, audioMissing) == ("r1", "Weekly sync", false))
            #expect(!ran)
            let again = try #require(Self.imported(try Self.run(store, again: true, engine)))
            #expect(again.saved.recording.id == "r2")
            #expect(try store.list().map(\.id).sorted() == ["r1", "r2"])
        }
    }

    @Test("a duplicate found by the save (another import saved the same audio meanwhile) is alreadyInLibrary too, and saves nothing more", arguments: Kind.allCases)
    func duplicateAtSave(kind: Kind) throws {
        try Self.with(kind) { store, engine in
            let outcome = try Self.run(store) { plan in
                _ = try engine(plan)  // the other import, saved while this one was transcribing
                return try engine(plan)
            }
            guard case .alreadyInLibrary(let id, let name, _) = outcome else {
                Issue.record("expected alreadyInLibrary, got \(outcome)")
                return
            }
            #expect((id, name) == ("r1", "Weekly sync"))
            #expect(try store.list().map(\.id) == ["r1"])
        }
    }

    @Test("an engine run that was stopped gives stopped and saves nothing", arguments: Kind.allCases)
    func stopped(kind: Kind) throws {
        try Self.with(kind) { store, _ in
            let outcome = try Self.run(store) { _ in nil }
            guard case .stopped = outcome else {
                Issue.record("expected stopped, got \(outcome)")
                return
            }
            #expect(try store.list().isEmpty)
        }
    }

    @Test("missing speaker models: the import stands unlabelled, and the result says how to install them", arguments: Kind.allCases)
    func speakersSkipped(kind: Kind) throws {
        try Self.with(kind) { store, engine in
            let missing = SpeakerModelFiles(segmentation: "/nonexistent/speaker-segmentation.onnx", embedding: "/nonexistent/speaker-embedding.onnx")
            let imported = try #require(Self.imported(try Self.run(store, speakers: SpeakerLabelling(diarizer: SherpaOnnxDiarizer(models: missing)), engine)))
            guard case .skipped = imported.speakers else {
                Issue.record("expected skipped, got \(String(describing: imported.speakers))")
                return
            }
            #expect(imported.speakers?.note?.hasPrefix("note: speaker labels were not made: no speaker model at /nonexistent/speaker-segmentation.onnx") == true)
            #expect(imported.saved.segments == Self.words)
            #expect(try store.transcript(of: imported.saved.recording.id) == Self.words)
        }
    }

    @Test("a labelling stopped after the save leaves the import unlabelled with no note; one that cannot read the audio gives its failure", arguments: Kind.allCases)
    func speakersStoppedOrFailed(kind: Kind) throws {
        try #require(SpeakerModelFiles.installed.missingFile == nil, "the speaker models are installed by make deps")
        try Self.with(kind) { store, engine in
            let stopped = try #require(Self.imported(try Self.run(
                store, speakers: SpeakerLabelling(diarizer: SherpaOnnxDiarizer(isCancelled: { true })), engine)))
            #expect(stopped.speakers == nil)
            #expect(stopped.speakerFailure == nil)
            #expect(stopped.saved.segments == Self.words)
            // The library's audio is four bytes that are no audio; the fake's audio file is not there at all.
            let failed = try #require(Self.imported(try Self.run(store, again: true, speakers: SpeakerLabelling(diarizer: SherpaOnnxDiarizer()), engine)))
            #expect(failed.speakers == nil)
            #expect(failed.speakerFailure != nil)
            #expect(try store.transcript(of: failed.saved.recording.id) == Self.words)
        }
    }
}
