import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The translation use case (`retranscribe --translate`, `import --translate`), on the SQLite
/// library and the in-memory store alike: kept next to the transcript, never over it.
@Suite("Translation use case, on both stores")
struct RecordingTranslationTests {
    typealias Kind = RecordingStoreConformanceTests.Kind

    static let english = [TranscriptSegment(text: "Good morning.", startSeconds: 0.5, endSeconds: 2, language: "de"),
                          TranscriptSegment(text: "Today we discuss the budget.", startSeconds: 2, endSeconds: 5)]

    static func with(_ kind: Kind, _ body: (any RecordingStore) throws -> Void) throws {
        try RecordingStoreConformanceTests.with(kind) { store, save in
            try save("r1", at: 0, name: "Haushalt", tags: [], ["Guten Morgen."])
            let audio = try store.audioFile(of: "r1")
            if FileManager.default.fileExists(atPath: audio.deletingLastPathComponent().path) {  // the library's folder; the fake has none
                try Data("RIFF".utf8).write(to: audio)
            }
            try body(store)
        }
    }

    @Test("keeps the translation next to the transcript, in start order, and the recording says it has one", arguments: Kind.allCases)
    func keeps(kind: Kind) throws {
        try Self.with(kind) { store in
            #expect(try store.translation(of: "r1") == nil)
            let recording = try store.resolve("r1")
            var given: URL?
            let kept = try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { audio in
                given = audio
                return Self.english.reversed()
            }
            #expect(given == (try store.audioFile(of: "r1")))
            let unlabelled = Self.english.map { TranscriptSegment(text: $0.text, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds) }
            #expect(kept == unlabelled)
            #expect(try store.translation(of: "r1") == unlabelled)
            #expect(try store.resolve("r1").translation == "en")
            #expect(try store.transcript(of: "r1").map(\.text) == ["Guten Morgen."])
            #expect(try store.restorePreviousTranscript(of: "r1") == false)
        }
    }

    @Test("a second translation replaces the first", arguments: Kind.allCases)
    func replaces(kind: Kind) throws {
        try Self.with(kind) { store in
            let recording = try store.resolve("r1")
            try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { _ in Self.english }
            try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { _ in [Self.english[0]] }
            #expect(try store.translation(of: "r1")?.map(\.text) == ["Good morning."])
        }
    }

    @Test("a translation that fails saves nothing; a missing audio file is refused before translating", arguments: Kind.allCases)
    func failures(kind: Kind) throws {
        try Self.with(kind) { store in
            let recording = try store.resolve("r1")
            #expect(throws: TranscriptionCancelled()) {
                try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { _ in throw TranscriptionCancelled() }
            }
            #expect(try store.translation(of: "r1") == nil)
            #expect(try store.resolve("r1").translation == nil)
            if let memory = store as? InMemoryRecordingStore {
                memory.removeAudio(of: "r1")
            } else {
                try FileManager.default.removeItem(at: try store.audioFile(of: "r1"))
            }
            var ran = false
            #expect(throws: MissingAudioFile(id: "r1", name: "Haushalt")) {
                try RecordingTranslation.run(recording, in: store, reads: .libsndfile) { _ in ran = true; return Self.english }
            }
            #expect(!ran)
        }
    }

    @Test("the sentence for a recording without one names the command that makes it")
    func missingSentence() {
        let recording = Recording(id: "20261207-101500-ab12", name: "Haushalt", createdAt: Date(timeIntervalSince1970: 0),
                                  durationSeconds: 7, language: "de", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(RecordingTranslation.missing(recording)
                == "'Haushalt' (20261207-101500-ab12) has no translation; make one with 'livetranscriber retranscribe 20261207-101500-ab12 --translate'")
    }
}
