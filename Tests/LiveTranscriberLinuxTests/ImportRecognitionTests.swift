import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// The recognizer an import gets (`RecognitionMode.fileInBackground`), with whisper.cpp on real speech.
@Suite("An import's recognizer: the file path on a background thread")
struct ImportRecognitionTests {
    @Test("a file decoded in the background decodes as retranscribe does: no decode of the open utterance, the same segments, words and times")
    func fileInBackground() throws {
        // The five LibriVox sentences as one file (0:24.73), as BENCHMARKS.md measures an import.
        let ids = try String(contentsOfFile: TestData.librivox + "/fileids", encoding: .utf8).split(separator: "\n")
        var pcm = Data()
        for id in ids { pcm.append(try Data(contentsOf: URL(fileURLWithPath: "\(TestData.librivox)/\(id).wav")).dropFirst(44)) }
        let folder = try TestFolders.make("lt-import-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fluent.wav").path
        try WAVFixture.make(audio: pcm).write(to: URL(fileURLWithPath: path))

        let file = try LocalTranscription.transcribe(SndFileReader(path: path), recognizer: LinuxSpeechEngines.make(.whisper, language: "en-US"))
        let imported = try #require(try LinuxSpeechEngines.make(.whisper, language: "en-US", mode: .fileInBackground) as? UtteranceRecognizer)
        let segments = try LocalTranscription.transcribe(SndFileReader(path: path), recognizer: imported)
        #expect(imported.openUtteranceDecodes == 0)
        #expect(segments == file)
        #expect(segments.map(\.text) == [
            "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.",
            "He was not an ill-disposed young man,",
            "unless to be rather cold-hearted and rather selfish, is to be ill-disposed.",
            "Had he married a more amiable woman, he might have been made still more respectable than he was.",
            "He might even have been made amiable himself.",
        ])
    }
}
