import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("Retranscribing long audio in pieces", .serialized)
struct CloudRetranscriberTests {
    static let local = [
        TranscriptSegment(text: "a", startSeconds: 0, endSeconds: 1.0),
        TranscriptSegment(text: "b", startSeconds: 1.1, endSeconds: 2.0),
        TranscriptSegment(text: "c", startSeconds: 2.1, endSeconds: 3.0),
    ]

    func retranscriber(_ server: LoopbackHTTPServer, maximumPieceBytes: Int) throws -> CloudRetranscriber {
        let client = OpenAITranscriptionClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL, apiKey: try CloudFixtures.apiKey()),
                                               http: HTTPClient(transport: URLSessionHTTPTransport(), sleep: SleepRecorder().sleep))
        return CloudRetranscriber(client: client, slicer: SndFileAudioSlicer(), maximumPieceBytes: maximumPieceBytes)
    }

    /// A 3-second, 8 kHz mono WAV: 24,000 frames, 48,044 bytes.
    func audioFile() throws -> URL {
        let url = try CloudFixtures.temporaryDirectory().appendingPathComponent("audio.wav")
        try CloudFixtures.wav(frames: 24_000, sampleRate: 8_000, channels: 1).write(to: url)
        return url
    }

    @Test("libsndfile reads the file's shape")
    func info() throws {
        #expect(try SndFileAudioSlicer().info(of: audioFile()) == AudioFileInfo(frames: 24_000, sampleRate: 8_000, channels: 1))
    }

    @Test("a file under the limit is sent whole under its own name and type")
    func whole() throws {
        let server = try LoopbackHTTPServer(responses: [.json(200, #"{"text":"x","segments":[{"start":0.5,"end":1,"text":" x"}]}"#)])
        defer { server.stop() }
        var reports: [CloudRetranscriptionProgress] = []
        let segments = try retranscriber(server, maximumPieceBytes: 100_000).transcribe(
            audioFile: audioFile(), localSegments: Self.local, model: .whisper1, language: "en", durationSeconds: 3,
            progress: { reports.append($0) })
        #expect(segments == [TranscriptSegment(text: "x", startSeconds: 0.5, endSeconds: 1)])
        #expect(reports == [.uploading(part: 1, of: 1)])
        let parts = CloudFixtures.parts(try #require(server.requests.first))
        #expect(parts["file"]?.filename == "audio.wav")
        #expect(parts["file"]?.value.count == 48_044)
    }

    @Test("longer audio is cut at pauses into WAV pieces under the limit, times offset by the real piece lengths")
    func whisperPieces() throws {
        let server = try LoopbackHTTPServer(handler: { request in
            let name = CloudFixtures.parts(request)["file"]?.filename ?? "?"
            return .json(200, #"{"text":"t","segments":[{"start":0.1,"end":0.5,"text":" \#(name)"}]}"#)
        })
        defer { server.stop() }
        var reports: [String] = []
        let segments = try retranscriber(server, maximumPieceBytes: 20_044).transcribe(
            audioFile: audioFile(), localSegments: Self.local, model: .whisper1, language: "en", durationSeconds: 3,
            progress: { reports.append($0.description) })
        #expect(segments.map(\.text) == ["audio-part1.wav", "audio-part2.wav", "audio-part3.wav"])
        #expect(reports == ["Uploading part 1 of 3…", "Uploading part 2 of 3…", "Uploading part 3 of 3…"])
        let starts = segments.map { ($0.startSeconds * 1000).rounded() / 1000 }
        #expect(starts == [0.1, 1.15, 2.15])
        let files = server.requests.compactMap { CloudFixtures.parts($0)["file"] }
        #expect(files.map(\.contentType) == ["audio/wav", "audio/wav", "audio/wav"])
        // 8,400 + 8,000 + 7,600 frames: cut at the pauses 1.05 s and 2.05 s.
        #expect(files.map { $0.value.count - 44 } == [16_800, 16_000, 15_200])
        #expect(files.allSatisfy { $0.value.count <= 20_044 })
    }

    @Test("text-only models keep the local segment times, each piece's text over the segments inside it")
    func textOnlyPieces() throws {
        let replies = ["one", "two", "three"]
        let server = try LoopbackHTTPServer(handler: { request in
            let name = CloudFixtures.parts(request)["file"]?.filename ?? ""
            let index = Int(name.filter(\.isNumber)).map { $0 - 1 } ?? 0
            return .json(200, #"{"text":"\#(replies[min(index, 2)])"}"#)
        })
        defer { server.stop() }
        let segments = try retranscriber(server, maximumPieceBytes: 20_044).transcribe(
            audioFile: audioFile(), localSegments: Self.local, model: .gpt4oTranscribe, language: "en", durationSeconds: 3)
        #expect(segments == [
            TranscriptSegment(text: "one", startSeconds: 0, endSeconds: 1.0),
            TranscriptSegment(text: "two", startSeconds: 1.1, endSeconds: 2.0),
            TranscriptSegment(text: "three", startSeconds: 2.1, endSeconds: 3.0),
        ])
    }
}
