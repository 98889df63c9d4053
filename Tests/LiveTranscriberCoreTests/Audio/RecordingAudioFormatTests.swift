import Foundation
import LiveTranscriberCore
import Testing

@Suite("Recording audio formats")
struct RecordingAudioFormatTests {
    @Test("M4A is recorded as a WAV draft and encoded on save; the other formats are recorded as they are")
    func draftFormats() {
        #expect(RecordingAudioFormat.allCases.map(\.draftFormat) == [.wav, .flac, .opus, .wav])
        #expect(RecordingAudioFormat.allCases.filter(\.isEncodedOnSave) == [.m4a])
        #expect(RecordingAudioFormat.m4a.fileExtension == "m4a")
        #expect(RecordingAudioFormat.allCases.map(\.displayName) == ["WAV", "FLAC", "Opus", "M4A (AAC)"])
        #expect(RecordingAudioFormat.choices == "wav, flac, opus or m4a")
        #expect(RecordingAudioFormat.list([.wav]) == "wav")
        #expect(RecordingAudioFormat.list([]) == "")
    }

    @Test("AAC is stored at one of its rates, the next one up; WAV and FLAC keep the source's")
    func storableRates() {
        #expect([8_000, 11_025, 16_000, 22_050, 44_100, 48_000, 96_000, 17_000].map(RecordingAudioFormat.m4a.storableRate(for:))
                == [8_000, 11_025, 16_000, 22_050, 44_100, 48_000, 48_000, 22_050])
        #expect(RecordingAudioFormat.opus.storableRate(for: 44_100) == 48_000)
        #expect(RecordingAudioFormat.wav.storableRate(for: 44_100) == 44_100)
        #expect(RecordingAudioFormat.flac.storableRate(for: 96_000) == 96_000)
    }

    @Test("AAC bit rate: 64 kbit/s per channel from 32 kHz up, 2 bits per sample per channel below")
    func aacBitRates() {
        #expect(RecordingAudioFormat.aacBitRate(sampleRate: 48_000, channels: 2) == 128_000)
        #expect(RecordingAudioFormat.aacBitRate(sampleRate: 44_100, channels: 1) == 64_000)
        #expect(RecordingAudioFormat.aacBitRate(sampleRate: 32_000, channels: 1) == 64_000)
        #expect(RecordingAudioFormat.aacBitRate(sampleRate: 16_000, channels: 1) == 32_000)
        #expect(RecordingAudioFormat.aacBitRate(sampleRate: 8_000, channels: 2) == 32_000)
    }

    @Test("libsndfile writes and reads WAV, FLAC and Opus, not M4A; AVFoundation writes and reads WAV, FLAC and M4A")
    func platformSupport() throws {
        try AudioFormatSupport.libsndfile.checkWritable(.opus)
        #expect(throws: AudioFormatUnsupported(format: "m4a", library: "libsndfile", kind: .write, alternatives: [.wav, .flac, .opus])) {
            try AudioFormatSupport.libsndfile.checkWritable(.m4a)
        }
        #expect(throws: AudioFormatUnsupported(format: "opus", library: "AVFoundation", kind: .write, alternatives: [.wav, .flac, .m4a])) {
            try AudioFormatSupport.avFoundation.checkWritable(.opus)
        }
        #expect(["wav", "FLAC", "opus", "m4a", "mp3"].map(AudioFormatSupport.libsndfile.canRead) == [true, true, true, false, false])
        #expect(["wav", "flac", "opus", "m4a"].map(AudioFormatSupport.avFoundation.canRead) == [true, true, false, true])
    }

    @Test("the refusals are one line each, naming the format, the library and what still works")
    func messages() {
        let write = AudioFormatUnsupported(format: "m4a", library: "libsndfile", kind: .write, alternatives: [.wav, .flac, .opus])
        #expect(write.description == "M4A (AAC) cannot be recorded here (libsndfile cannot write it); use wav, flac or opus.")
        let read = AudioFormatUnsupported(format: "m4a", library: "libsndfile", kind: .read, alternatives: [.wav, .flac, .opus])
        #expect(read.description == "the audio is M4A (AAC), which libsndfile cannot read on this machine; "
                + "the transcript can still be listed, shown, searched and exported.")
        #expect(!write.description.contains("\n") && !read.description.contains("\n"))
    }
}
