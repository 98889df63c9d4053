import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// `LocalTranscription.transcribe`'s progress (serve's transcribe-again bar), with whisper.cpp on
/// real speech: a file is read faster than it is decoded, so most of it is decoded at the end.
@Suite("Local transcription's progress")
struct LocalTranscriptionProgressTests {
    @Test("progress moves as each pending decode ends, never goes back, and ends at all the audio read (1:14.19)")
    func progressThroughTheTail() throws {
        // The five LibriVox sentences three times as one file: 1,187,040 samples at 16 kHz, decoded in
        // stretches of up to 27 s (`UtterancePacking`).
        let ids = try String(contentsOfFile: TestData.librivox + "/fileids", encoding: .utf8).split(separator: "\n")
        var pcm = Data()
        for _ in 0..<3 {
            for id in ids { pcm.append(try Data(contentsOf: URL(fileURLWithPath: "\(TestData.librivox)/\(id).wav")).dropFirst(44)) }
        }
        let folder = try TestFolders.make("lt-progress")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("long.wav")
        try WAVFixture.make(audio: pcm).write(to: path)
        var reports: [Double] = []
        let segments = try LocalTranscription.transcribe(SndFileReader(path: path.path), recognizer: LinuxSpeechEngines.make(.whisper, language: "en-US"),
                                                         progress: { reports.append($0) })
        #expect(segments.count >= 15)
        #expect(reports == reports.sorted())
        #expect(reports.last == Double(pcm.count / 2) / 16_000)
        // Before this fix the reports stayed at the first utterance's start (0.024 s) until the last one.
        let shares = Set(reports.map { Int($0 / 74.19 * 10) })  // tenths of the file reached
        #expect(shares.count >= 4, "\(reports.map { ($0 * 1000).rounded() / 1000 })")
    }
}
