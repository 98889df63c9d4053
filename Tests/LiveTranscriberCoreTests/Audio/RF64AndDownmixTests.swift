import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing


@Suite("WAVHeaderRepair: RF64 past 4 GiB")
struct RF64RepairTests {
    /// Plans the repair of a file made of `header` followed by `audioBytes` of audio that are never read.
    func plan(header: [UInt8], audioBytes: UInt64, audioIsRead: Bool = false) throws -> WAVRepairPlan {
        try WAVHeaderRepair.plan(fileSize: UInt64(header.count) + audioBytes) { offset, count in
            guard offset < UInt64(header.count) else {
                if !audioIsRead { Issue.record("the audio at \(offset) was read") }
                return Data(count: count)
            }
            return Data(header[Int(offset)..<min(header.count, Int(offset) + count)])
        }
    }

    @Test("an RF64 header left at 0 by a crash, with 5 GiB of 48 kHz stereo after it, is repaired to 27,962.03 s in ds64")
    func zeroSizesPastFourGiB() throws {
        let audio: UInt64 = 5 << 30
        let header = WAVFixture.rf64Header(riff: 0, data: 0, frames: 0)
        #expect(header.count == 80)
        let plan = try plan(header: header, audioBytes: audio)
        guard case .repair(let layout, let patches, let fileSize) = plan else {
            Issue.record("expected a repair, got \(plan)")
            return
        }
        #expect(layout.isRF64)
        #expect(layout.dataSize == 5_368_709_120)
        #expect(layout.durationSeconds == 1_342_177_280.0 / 48_000)
        #expect(fileSize == 80 + audio)
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) } }
        #expect(patches == [
            WAVPatch(offset: 4, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
            WAVPatch(offset: 20, bytes: le64(80 + audio - 8)),
            WAVPatch(offset: 28, bytes: le64(audio)),
            WAVPatch(offset: 36, bytes: le64(1_342_177_280)),
            WAVPatch(offset: 76, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
        ])
    }

    @Test("a finished RF64 header past 4 GiB is healthy and not written to")
    func healthyPastFourGiB() throws {
        let audio: UInt64 = (5 << 30) + 4_000
        let plan = try plan(header: WAVFixture.rf64Header(riff: 80 + audio - 8, data: audio, frames: audio / 4), audioBytes: audio)
        guard case .healthy(let layout) = plan else {
            Issue.record("expected healthy, got \(plan)")
            return
        }
        #expect(layout.isRF64)
        #expect(layout.dataOffset == 80)
        #expect(layout.dataSize == audio)
        #expect(layout.durationSeconds == Double(audio / 4) / 48_000)
    }

    @Test("a stale ds64 (the last update 0.5 s ago) grows to the bytes present")
    func staleDS64() throws {
        let audio: UInt64 = (6 << 30) + 96_002  // and half a frame torn off by the crash
        let header = WAVFixture.rf64Header(riff: 80 + (6 << 30) - 8, data: 6 << 30, frames: (6 << 30) / 4)
        // Only the 8 bytes where a chunk could follow the stated data are read (zeros: no chunk).
        let repaired = try plan(header: header, audioBytes: audio, audioIsRead: true)
        #expect(repaired.layout.dataSize == (6 << 30) + 96_000)
        #expect(repaired.layout.durationSeconds == Double(((6 << 30) + 96_000) / 4) / 48_000)
        if case .repair(_, _, let fileSize) = repaired { #expect(fileSize == 80 + (6 << 30) + 96_000) }
    }

    @Test("a plain RIFF header is still capped at what 32-bit sizes hold")
    func riffStaysRIFF() throws {
        let header = [UInt8](WAVFixture.make(audio: [], riffSize: 0, dataSize: 0))
        let plan = try plan(header: header, audioBytes: 5 << 30)
        #expect(!plan.layout.isRF64)
        #expect(plan.layout.dataSize == UInt64(UInt32.max - 64) / 2 * 2)
    }
}

@Suite("Downmix")
struct DownmixTests {
    /// 0.5 s of a 220 Hz tone with a 3 Hz envelope, like a voice.
    let voice: [Float] = (0..<8_000).map { index in
        let time = Float(index) / 16_000
        return 0.4 * sin(2 * .pi * 220 * time) * (0.6 + 0.4 * sin(2 * .pi * 3 * time))
    }

    func interleave(_ channels: [[Float]]) -> AudioBuffer {
        AudioBuffer(samples: (0..<channels[0].count).flatMap { frame in channels.map { $0[frame] } }, channels: channels.count)
    }

    @Test("stereo whose right channel is the left inverted gives the left channel, not silence")
    func phaseInvertedStereo() {
        let mono = AudioMath.downmixToMono(interleave([voice, voice.map { -$0 }]))
        #expect(mono == voice)
    }

    @Test("the same rule for any channel count: the strongest channel when the channels cancel", arguments: [3, 4, 6, 8])
    func cancellingChannels(count: Int) {
        // Channel 1 holds the voice, channel 2 its inverse at 90%, the others a faint copy of it.
        var channels = [[Float]](repeating: voice.map { $0 * 0.01 }, count: count)
        channels[1] = voice
        channels[2] = voice.map { -$0 * 0.9 }
        channels[0] = voice.map { -$0 * 0.05 }
        #expect(AudioMath.downmixToMono(interleave(channels)) == voice)
    }

    @Test("channels that do not cancel are averaged as before: one silent channel halves the level")
    func ordinaryStereo() {
        let silence = [Float](repeating: 0, count: voice.count)
        #expect(AudioMath.downmixToMono(interleave([voice, silence])) == voice.map { $0 * 0.5 })
        #expect(AudioMath.downmixToMono(interleave([voice, voice])) == voice)
    }

    @Test("silence stays silence")
    func silence() {
        let silence = [Float](repeating: 0, count: 1_600)
        #expect(AudioMath.downmixToMono(interleave([silence, silence])) == silence)
    }
}

@Suite("Recording durations")
struct RecordingDurationTests {
    @Test("a non-finite or negative duration is stored as 0", arguments: [Double.nan, .infinity, -.infinity, -3])
    func nonsenseBecomesZero(seconds: Double) throws {
        var recording = Recording(id: "a", name: "A", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: seconds,
                                  language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(recording.durationSeconds == 0)
        recording.durationSeconds = 2.5
        recording.durationSeconds = seconds
        #expect(recording.durationSeconds == 0)
    }

    @Test("metadata.json with a negative duration reads as 0")
    func decodedNegative() throws {
        let json = #"{"id":"a","name":"A","createdAt":"2026-11-29T20:41:12Z","duration":-12.5,"language":"en-US","tags":[],"audio":{"format":"wav","sampleRate":16000,"channels":1},"summary":null,"recovered":false}"#
        #expect(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(json.utf8)).durationSeconds == 0)
    }
}
