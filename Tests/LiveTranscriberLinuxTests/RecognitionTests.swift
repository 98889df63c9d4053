import Foundation
import LiveTranscriberCore
import Testing
@testable import LiveTranscriberLinux

/// Real speech from Debian's pocketsphinx-testdata, decoded by the real en-US model.
enum TestData {
    static let folder = "/usr/share/pocketsphinx/test/data"
    static let goForward = folder + "/goforward.raw"
    static let librivox = folder + "/librivox"

    /// (file id, reference transcript) pairs from the shipped `transcription` file.
    static func librivoxReferences() throws -> [(id: String, text: String)] {
        let lines = try String(contentsOfFile: librivox + "/transcription", encoding: .utf8)
            .split(separator: "\n")
        return lines.compactMap { line in
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            let id = String(line[line.index(after: open)..<close])
            let text = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
            return (id, text.trimmingCharacters(in: .whitespaces))
        }
    }
}

@Suite("Speech recognition with pocketsphinx")
struct RecognitionTests {
    @Test("goforward.raw transcribes to 'go forward ten meters' with word times from the start of the stream")
    func goForward() throws {
        let source = try RawPCMReader(path: TestData.goForward, sampleRate: 16_000, channels: 1)
        let segments = try LocalTranscription.transcribe(source, recognizer: try PocketSphinxRecognizer())
        #expect(segments.map(\.text) == ["go forward ten meters"])
        let words = try #require(segments.first?.words)
        #expect(words.map(\.word) == ["go", "forward", "ten", "meters"])
        #expect(abs(words[0].startSeconds - 0.46) < 0.05)
        #expect(abs(words[3].endSeconds - 2.11) < 0.05)
        #expect(abs(segments[0].startSeconds - 0.46) < 0.05)
    }

    @Test("a stop request in the middle of an utterance gives the first pass's words as its final, without the second pass; the input's end runs it")
    func stopSkipsTheSecondPass() throws {
        let source = try RawPCMReader(path: TestData.goForward, sampleRate: 16_000, channels: 1)
        var samples: [Float] = []
        while let buffer = try source.read(maxFrames: 1_600) { samples += buffer.samples }
        // The speech alone, without the silence that would end the utterance: it is still open.
        let speech = Array(samples[..<Int(2.2 * 16_000)])
        for stop in [true, false] {
            let recognizer = try PocketSphinxRecognizer()
            var events: [RecognitionEvent] = []
            for start in stride(from: 0, to: speech.count, by: 1_600) {
                events += try recognizer.accept(.float32(Array(speech[start..<min(speech.count, start + 1_600)])))
            }
            #expect(events.filter { if case .final = $0 { true } else { false } }.isEmpty)  // the utterance is still open
            let ending = try recognizer.finish(stopRequested: stop, abandoning: { true })
            #expect(ending.untranscribedFromSeconds == nil)
            let finals = ending.events.compactMap { event -> TranscriptSegment? in
                if case .final(let segment) = event { return segment }
                return nil
            }
            #expect(finals.map(\.text) == ["go forward ten meters"], "stop requested: \(stop)")
            #expect(finals.first?.words.map(\.word) == ["go", "forward", "ten", "meters"])
        }
    }

    @Test("the five librivox recordings reach a word error rate of at most 45%")
    func librivoxWordErrorRate() throws {
        var total = WordErrorRate(errors: 0, referenceWords: 0)
        for (id, reference) in try TestData.librivoxReferences() {
            let source = try SndFileReader(path: "\(TestData.librivox)/\(id).wav")
            let hypothesis = try LocalTranscription.transcribe(source, recognizer: try PocketSphinxRecognizer()).map(\.text).joined(separator: " ")
            total = total + WordErrorRate.measure(reference: reference, hypothesis: hypothesis)
        }
        #expect(total.referenceWords == 71)
        #expect(total.rate <= 0.45, "word error rate \(total.rate)")
        print("librivox word error rate: \(total.errors)/\(total.referenceWords) = \(total.rate)")
        #expect(total.rate > 0, "a perfect score on this engine would mean the reference leaked in")
    }

    @Test("silence gives no final segment")
    func silenceGivesNothing() throws {
        let recognizer = try PocketSphinxRecognizer()
        var events = try recognizer.accept(.int16([Int16](repeating: 0, count: 32_000)))
        events += try recognizer.finish()
        #expect(!events.contains { if case .final = $0 { true } else { false } })
    }

    @Test("a missing model gives a clear error naming the package")
    func missingModel() throws {
        var model = PocketSphinxModel.englishUS
        model.dictionary = "/nonexistent/cmudict.dict"
        #expect(throws: RecognizerError.modelMissing(path: "/nonexistent/cmudict.dict")) {
            try PocketSphinxRecognizer(model: model)
        }
    }

    @Test("pronunciation variants and fillers are removed from words", arguments: [
        ("and(2)", "and"), ("<sil>", nil), ("<s>", nil), ("[NOISE]", nil), ("++UH++", nil), ("meters", "meters"),
    ] as [(String, String?)])
    func spokenWords(token: String, expected: String?) {
        #expect(PocketSphinxRecognizer.spokenWord(token) == expected)
    }
}

/// Audio held in memory, for tests that build a stream from pieces.
final class MemorySource: AudioSource {
    let format: AudioFormat
    var totalFrames: Int? { samples.count / format.channels }
    private let samples: [Float]
    private var position = 0

    init(samples: [Float], format: AudioFormat) {
        self.samples = samples
        self.format = format
    }

    func read(maxFrames: Int) throws -> AudioBuffer? {
        guard position < samples.count else { return nil }
        let end = min(samples.count, position + maxFrames * format.channels)
        defer { position = end }
        return AudioBuffer(samples: Array(samples[position..<end]), channels: format.channels)
    }
}

@Suite("Utterances and endpointing")
struct EndpointingTests {
    @Test("each utterance is its own final segment, timed from the start of the recording")
    func twoUtterances() throws {
        let speech = try Data(contentsOf: URL(fileURLWithPath: TestData.goForward))
        let pcm = speech.withUnsafeBytes { raw in
            (0..<speech.count / 2).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32_768 }
        }
        let silence = [Float](repeating: 0, count: 16_000)
        let source = MemorySource(samples: pcm + silence + pcm, format: AudioFormat(sampleRate: 16_000, channels: 1))
        let segments = try LocalTranscription.transcribe(source, recognizer: try PocketSphinxRecognizer())
        #expect(segments.map(\.text) == ["go forward ten meters", "go forward ten meters"])
        // The second "go" is one file length (2.786 s) and one second of silence later.
        let secondStart = try #require(segments.last?.startSeconds)
        #expect(abs(secondStart - (0.46 + 2.786 + 1.0)) < 0.1, "second utterance starts at \(secondStart)")
        #expect(segments[0].endSeconds <= segments[1].startSeconds)
    }
}
