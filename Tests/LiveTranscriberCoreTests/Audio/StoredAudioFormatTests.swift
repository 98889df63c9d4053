import Foundation
import LiveTranscriberCore
import Testing

/// The stored audio format's one parse rule, and its JSON shape in `metadata.json`.
struct StoredAudioFormatTests {
    @Test("white space is dropped and letters lowercased; a name this build does not know is kept, not known", arguments: [
        ("wav", "wav", RecordingAudioFormat.wav as RecordingAudioFormat?), (" FLAC\n", "flac", .flac), ("Opus", "opus", .opus),
        ("m4a", "m4a", .m4a), ("caf", "caf", nil), ("", "", nil),
    ])
    func parses(text: String, rawValue: String, known: RecordingAudioFormat?) {
        let format = StoredAudioFormat(rawValue: text)
        #expect(format.rawValue == rawValue)
        #expect(format.known == known)
        #expect(format.fileExtension == rawValue)
    }

    @Test("is a plain JSON string in the audio description, read back through the same rule")
    func json() throws {
        let audio = AudioDescription(format: "flac", sampleRate: 48_000, channels: 2)
        let encoded = String(decoding: try JSONEncoder.liveTranscriber.encode(audio), as: UTF8.self)
        #expect(encoded.contains("\"format\" : \"flac\""))
        let read = try JSONDecoder.liveTranscriber.decode(AudioDescription.self, from: Data(#"{"format":"WAV","sampleRate":16000,"channels":1}"#.utf8))
        #expect(read.format == StoredAudioFormat(.wav))
    }

    @Test("a format this platform cannot read is refused naming it as stored")
    func readable() {
        #expect(AudioFormatSupport.libsndfile.canRead("flac"))
        #expect(!AudioFormatSupport.libsndfile.canRead("m4a"))
        #expect(!AudioFormatSupport.libsndfile.canRead("caf"))
    }
}
