import AVFoundation
import LiveTranscriberCore

/// The core's `AudioSlicer` over `AVAudioFile`, the role libsndfile has on Linux
/// (`SndFileAudioSlicer`): reads a recording's shape (WAV, FLAC, M4A/AAC…) and writes a span of it
/// as 16-bit PCM WAV with the source's rate and channels, for uploads under OpenAI's size limit.
/// Where to cut is the core's decision (`UploadPlan`); this only reads and writes frames.
struct AVAudioFileSlicer: AudioSlicer {
    /// Frames per read; about 1.5 s at 44.1 kHz.
    private static let block: AVAudioFrameCount = 65_536

    func info(of file: URL) throws -> AudioFileInfo {
        let audio = try AVAudioFile(forReading: file)
        return AudioFileInfo(frames: Int(audio.length), sampleRate: Int(audio.fileFormat.sampleRate),
                             channels: Int(audio.fileFormat.channelCount))
    }

    /// - Throws: AVFoundation's errors when the source cannot be read or the piece cannot be written.
    func writeWAV(_ piece: AudioPiece, of source: URL, to destination: URL) throws -> Int {
        let input = try AVAudioFile(forReading: source)
        let format = input.processingFormat
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: format.sampleRate,
            AVNumberOfChannelsKey: format.channelCount,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
        ]
        // The same processing format on both sides: AVAudioFile converts to 16-bit on write.
        let output = try AVAudioFile(forWriting: destination, settings: settings,
                                     commonFormat: format.commonFormat, interleaved: format.isInterleaved)
        defer { output.close() }
        guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: Self.block) else {
            throw CocoaError(.fileWriteUnknown)
        }
        input.framePosition = AVAudioFramePosition(piece.startFrame)
        var remaining = piece.frameCount
        var written = 0
        while remaining > 0, input.framePosition < input.length {
            try input.read(into: buffer, frameCount: min(Self.block, AVAudioFrameCount(remaining)))
            guard buffer.frameLength > 0 else { break }
            try output.write(from: buffer)
            written += Int(buffer.frameLength)
            remaining -= Int(buffer.frameLength)
        }
        return written
    }
}
