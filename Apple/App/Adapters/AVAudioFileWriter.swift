import AVFoundation
import LiveTranscriberCore

/// The core's `AudioFileWriter` over `AVAudioFile`: the original audio of a recording, written as
/// it arrives (16-bit PCM WAV, or FLAC), interleaved channels as they come; and AAC in an `.m4a`
/// container for `AVAudioFileEncoder`, which encodes an M4A recording's WAV draft on save (the
/// engine never records M4A directly: `RecordingAudioFormat.draftFormat`).
///
/// `AVAudioFile` keeps a WAV header up to date only when it closes, so `updateHeader()` cannot
/// rewrite it mid-recording as the Linux writer does; a draft left by a crash is repaired by the
/// core's `WAVHeaderRepair` during recovery, from the data that is there.
final class AVAudioFileWriter: AudioFileWriter {
    private let file: AVAudioFile
    private let channels: Int
    private var closed = false

    /// Creates `url` for audio of `format`.
    /// - Throws: `AVAudioFileWriterError.unsupported` for a format iOS cannot write here (Opus in
    ///   Ogg, `AudioFormatSupport.avFoundation`); AVFoundation's error when the file cannot be
    ///   created (for M4A, a rate or bit rate the AAC encoder refuses).
    init(url: URL, format: AudioFormat, fileFormat: RecordingAudioFormat) throws {
        var settings: [String: Any] = [
            AVSampleRateKey: Double(format.sampleRate),
            AVNumberOfChannelsKey: format.channels,
        ]
        switch fileFormat {
        case .wav:
            settings[AVFormatIDKey] = kAudioFormatLinearPCM
            settings[AVLinearPCMBitDepthKey] = 16
            settings[AVLinearPCMIsFloatKey] = false
            settings[AVLinearPCMIsBigEndianKey] = false
        case .flac:
            settings[AVFormatIDKey] = kAudioFormatFLAC
        case .m4a:
            // AAC-LC at the core's bit rate; the container comes from the URL's extension (.m4a).
            settings[AVFormatIDKey] = kAudioFormatMPEG4AAC
            settings[AVEncoderBitRateKey] = RecordingAudioFormat.aacBitRate(sampleRate: format.sampleRate, channels: format.channels)
            settings[AVEncoderBitRateStrategyKey] = AVAudioBitRateStrategy_Constant
            settings[AVEncoderAudioQualityKey] = AVAudioQuality.high.rawValue
        case .opus:
            throw AVAudioFileWriterError.unsupported(fileFormat)
        }
        file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: true)
        channels = format.channels
    }

    func write(_ buffer: LiveTranscriberCore.AudioBuffer) throws {
        guard !closed else { throw AVAudioFileWriterError.closed }
        let frames = buffer.frameCount
        guard frames > 0 else { return }
        guard buffer.channels == channels,
              let pcm = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(frames))
        else { throw AVAudioFileWriterError.channelMismatch(expected: channels, got: buffer.channels) }
        pcm.frameLength = AVAudioFrameCount(frames)
        // Interleaved processing format: one buffer holding every channel.
        buffer.samples.withUnsafeBufferPointer { samples in
            pcm.floatChannelData![0].update(from: samples.baseAddress!, count: frames * channels)
        }
        try file.write(from: pcm)
    }

    func updateHeader() throws {
        // Not possible with AVAudioFile (see the type's note); recovery repairs the header.
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        file.close()
    }
}

/// Why the iOS writer refused.
enum AVAudioFileWriterError: Error, CustomStringConvertible {
    case unsupported(RecordingAudioFormat)
    case channelMismatch(expected: Int, got: Int)
    case closed

    var description: String {
        switch self {
        case .unsupported(let format): "LiveTranscriber for iPhone cannot record \(format.rawValue) files."
        case .channelMismatch(let expected, let got): "Audio with \(got) channels cannot go into a \(expected)-channel file."
        case .closed: "The recording's audio file is already closed."
        }
    }
}
