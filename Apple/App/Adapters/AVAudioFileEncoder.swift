import AVFoundation
import LiveTranscriberCore

/// The core's `AudioFileEncoding` over `AVAudioFile`: reads a closed draft (WAV) and writes it
/// again through `AVAudioFileWriter` in another format (M4A: AAC-LC at
/// `RecordingAudioFormat.aacBitRate`), at the draft's rate and channels, 32,768 frames at a time.
/// The library store calls it on save (`DraftAudioEncoding`); a thrown error makes the store keep
/// the WAV, so nothing is lost to an encoder that refuses a rate or bit rate.
struct AVAudioFileEncoder: AudioFileEncoding {
    private static let blockFrames: AVAudioFrameCount = 32_768

    func encode(_ source: URL, to destination: URL, as format: RecordingAudioFormat) throws {
        let input = try AVAudioFile(forReading: source, commonFormat: .pcmFormatFloat32, interleaved: true)
        let rate = Int(input.processingFormat.sampleRate)
        let channels = Int(input.processingFormat.channelCount)
        let writer = try AVAudioFileWriter(url: destination, format: AudioFormat(sampleRate: rate, channels: channels), fileFormat: format)
        guard let block = AVAudioPCMBuffer(pcmFormat: input.processingFormat, frameCapacity: Self.blockFrames) else {
            throw AVAudioFileEncoderError.noBuffer
        }
        while input.framePosition < input.length {
            try input.read(into: block, frameCount: Self.blockFrames)
            let frames = Int(block.frameLength)
            guard frames > 0 else { break }
            // Interleaved: one buffer holding every channel.
            let samples = Array(UnsafeBufferPointer(start: block.floatChannelData![0], count: frames * channels))
            try writer.write(LiveTranscriberCore.AudioBuffer(samples: samples, channels: channels))
        }
        try writer.close()
    }
}

/// Why the encoder stopped.
enum AVAudioFileEncoderError: Error, CustomStringConvertible {
    case noBuffer

    var description: String {
        switch self {
        case .noBuffer: "No audio buffer could be made to encode the recording."
        }
    }
}
