import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// M4A recordings through the engine: the draft is WAV (readable after a crash), the encoder
/// runs on save, and a failed encode keeps the WAV.
@Suite("Recording engine: M4A")
struct RecordingEngineM4ATests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    final class Harness {
        let clock = ManualClock(start: RecordingEngineM4ATests.t0)
        let store = InMemoryRecordingStore()
        let activity = RecordingActivityClient()
        /// Each writer the engine asked for: its file, its format and the stored file format.
        var writerRequests: [(URL, AudioFormat, RecordingAudioFormat)] = []
        /// Each resampler the engine asked for: input rate, output rate, channels.
        var resamplerRequests: [[Int]] = []
        var engine: RecordingEngine<InMemoryRecordingStore>!

        init(format: RecordingAudioFormat, encoder: (any AudioFileEncoding)?, sourceFormat: AudioFormat = AudioFormat(sampleRate: 16_000, channels: 1)) {
            let recognizer = ScriptedRecognizer(cues: [
                .init(atSeconds: 1.0, [.final(TranscriptSegment(text: "smaller files", startSeconds: 0.2, endSeconds: 0.9))]),
            ])
            let services = RecordingEngineServices(
                store: store,
                makeRecognizer: { _ in recognizer },
                makeResampler: { [unowned self] from, to, channels in
                    resamplerRequests.append([from, to, channels])
                    return PassThroughResampler()
                },
                makeWriter: { [unowned self] url, audioFormat, fileFormat in
                    writerRequests.append((url, audioFormat, fileFormat))
                    return MemoryAudioFileWriter(format: audioFormat)
                },
                activity: activity, clock: clock, encoder: encoder)
            engine = RecordingEngine(sourceFormat: sourceFormat, settings: .init(language: "en-US", name: "Notes", fileFormat: format),
                                     services: services)
        }

        /// Records two seconds and stops.
        func recordTwoSeconds() throws {
            try engine.start()
            for _ in 0..<20 {
                try engine.receive(AudioBuffer(samples: [Float](repeating: 0.25, count: 1_600), channels: 1))
                clock.advance(by: 0.1)
            }
            try engine.stop()
        }
    }

    @Test("an M4A recording writes a WAV draft, encodes it on save and is saved as M4A at the same rate and channels")
    func encodedOnSave() throws {
        let encoder = RecordingAudioEncoder()
        let harness = Harness(format: .m4a, encoder: encoder)
        try harness.recordTwoSeconds()
        #expect(harness.writerRequests.map(\.2) == [.wav])
        #expect(harness.writerRequests.map(\.0.lastPathComponent) == ["audio.wav"])
        #expect(encoder.calls.isEmpty)  // nothing is encoded before the user saves
        guard case .saved(let recording, let segments) = try harness.engine.finish(keep: true) else {
            Issue.record("the recording was not saved")
            return
        }
        #expect(recording.audio == AudioDescription(format: "m4a", sampleRate: 16_000, channels: 1))
        #expect(segments.map(\.text) == ["smaller files"])
        #expect(encoder.calls.map { [$0.source.lastPathComponent, $0.destination.lastPathComponent, $0.format.rawValue] }
                == [["audio.wav", "audio.m4a", "m4a"]])
        #expect(try harness.store.audioFile(of: recording.id).lastPathComponent == "audio.m4a")
    }

    @Test("an encode that fails saves the recording as its WAV draft: nothing recorded is lost")
    func failedEncodeKeepsWAV() throws {
        let encoder = RecordingAudioEncoder(fails: true)
        let harness = Harness(format: .m4a, encoder: encoder)
        try harness.recordTwoSeconds()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
            Issue.record("the recording was not saved")
            return
        }
        #expect(encoder.calls.count == 1)
        #expect(recording.audio.format == "wav")
        #expect(recording.durationSeconds == 2)
        #expect(try harness.store.audioFile(of: recording.id).lastPathComponent == "audio.wav")
    }

    @Test("M4A without an encoder (a front end that has none) is refused at start, before any draft or file exists")
    func noEncoderRefused() throws {
        let harness = Harness(format: .m4a, encoder: nil)
        #expect(throws: RecordingEngineError.cannotEncode(.m4a)) { try harness.engine.start() }
        #expect(harness.engine.phase == .idle)
        #expect(harness.writerRequests.isEmpty)
        #expect(harness.store.draftIDs.isEmpty)
        #expect(harness.activity.calls.isEmpty)
        #expect(RecordingEngineError.cannotEncode(.m4a).description
                == "this recorder cannot encode M4A (AAC); choose wav, flac or opus.")
    }

    @Test("the WAV draft of an M4A recording is written at an AAC rate (44.1 kHz stays, 96 kHz becomes 48 kHz)")
    func draftAtAACRate() throws {
        let cd = Harness(format: .m4a, encoder: RecordingAudioEncoder(), sourceFormat: AudioFormat(sampleRate: 44_100, channels: 2))
        try cd.engine.start()
        #expect(cd.writerRequests.map(\.1) == [AudioFormat(sampleRate: 44_100, channels: 2)])
        #expect(cd.writerRequests.map(\.2) == [.wav])
        #expect(cd.resamplerRequests == [[44_100, 16_000, 1]])  // for the recognizer only
        let studio = Harness(format: .m4a, encoder: RecordingAudioEncoder(), sourceFormat: AudioFormat(sampleRate: 96_000, channels: 2))
        try studio.engine.start()
        #expect(studio.writerRequests.map(\.1) == [AudioFormat(sampleRate: 48_000, channels: 2)])
        #expect(studio.resamplerRequests == [[96_000, 16_000, 1], [96_000, 48_000, 2]])
    }

    @Test("WAV and FLAC recordings are never encoded, even with an encoder present")
    func otherFormatsUntouched() throws {
        for format in [RecordingAudioFormat.wav, .flac] {
            let encoder = RecordingAudioEncoder()
            let harness = Harness(format: format, encoder: encoder)
            try harness.recordTwoSeconds()
            guard case .saved(let recording, _) = try harness.engine.finish(keep: true) else {
                Issue.record("the recording was not saved")
                return
            }
            #expect(recording.audio.format == StoredAudioFormat(format))
            #expect(harness.writerRequests.map(\.2) == [format])
            #expect(encoder.calls.isEmpty)
        }
    }
}

/// Hands samples through unchanged (only which rates were asked for matters here).
private final class PassThroughResampler: Resampler {
    func process(_ samples: [Float]) throws -> [Float] { samples }
    func flush() throws -> [Float] { [] }
}
