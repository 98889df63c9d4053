import Foundation

/// Re-transcribes a saved recording with OpenAI, whatever its length.
///
/// A file under the upload limit is sent whole, in its own format. A longer one is cut with an
/// `AudioSlicer` into 16-bit WAV pieces along `UploadPlan.pieces` (at pauses between the local
/// segments when possible), sent one after the other; each piece's times are offset by the real
/// lengths (frames written) of the pieces before it. whisper-1's segments are used as they come;
/// for the text-only gpt-4o models, each piece's text is laid over the local segments that start
/// inside that piece (`TranscriptAligner`), keeping their times. Temporary pieces are deleted.
public struct CloudRetranscriber {
    public var client: OpenAITranscriptionClient
    public var slicer: any AudioSlicer
    /// Largest file sent as it is, and largest piece; lowered in tests.
    public var maximumPieceBytes: Int

    public init(client: OpenAITranscriptionClient, slicer: any AudioSlicer, maximumPieceBytes: Int = UploadPlan.maximumPieceBytes) {
        self.client = client
        self.slicer = slicer
        self.maximumPieceBytes = maximumPieceBytes
    }

    /// The new transcript of `audioFile`, sanitized, times in seconds from the start of the recording.
    ///
    /// - Parameters:
    ///   - audioFile: The recording's audio (wav, flac, ogg/opus, mp3…).
    ///   - localSegments: The current transcript: its pauses guide the cuts, its times carry gpt-4o text.
    ///   - model: The OpenAI model.
    ///   - language: The recording's BCP 47 language.
    ///   - durationSeconds: The recording's duration, the span of a text-only answer with no local segments.
    ///   - progress: Called before each upload, on the calling thread.
    /// - Throws: `OpenAIError`, the slicer's errors, file read errors.
    public func transcribe(audioFile: URL, localSegments: [TranscriptSegment], model: TranscriptionModel,
                           language: String, durationSeconds: Double,
                           progress: (CloudRetranscriptionProgress) -> Void = { _ in }) throws -> [TranscriptSegment] {
        let fileName = "audio." + audioFile.pathExtension.lowercased()
        guard AudioContentType.mediaType(forFileName: fileName) != nil else {
            throw OpenAIError.unsupportedAudio(fileName: audioFile.lastPathComponent)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: audioFile.path)[.size] as? NSNumber)?.intValue ?? Int.max
        if UploadPlan.fitsWhole(fileBytes: size, limit: maximumPieceBytes) {
            let data = try Data(contentsOf: audioFile)
            progress(.uploading(part: 1, of: 1))
            let result = try client.transcribe(audio: data, fileName: fileName, model: model, language: language)
            return SegmentSanitizer.sanitize(place(result, offset: 0, length: durationSeconds, local: localSegments, isLast: true))
        }

        let info = try slicer.info(of: audioFile)
        let pieces = UploadPlan.pieces(totalFrames: info.frames, channels: info.channels, sampleRate: info.sampleRate,
                                       preferredCutSeconds: UploadPlan.pauses(between: localSegments),
                                       maximumBytes: maximumPieceBytes)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("livetranscriber-upload-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var segments: [TranscriptSegment] = []
        var offsetFrames = 0
        for (index, piece) in pieces.enumerated() {
            let url = directory.appendingPathComponent("audio-part\(index + 1).wav")
            let written = try slicer.writeWAV(piece, of: audioFile, to: url)
            let data = try Data(contentsOf: url)
            try? FileManager.default.removeItem(at: url)
            progress(.uploading(part: index + 1, of: pieces.count))
            let result = try client.transcribe(audio: data, fileName: url.lastPathComponent, model: model, language: language)
            let rate = Double(max(1, info.sampleRate))
            segments += place(result, offset: Double(offsetFrames) / rate, length: Double(written) / rate,
                              local: localSegments, isLast: index == pieces.count - 1)
            offsetFrames += written
        }
        return SegmentSanitizer.sanitize(segments)
    }

    /// One answer's segments on the recording's time line.
    func place(_ result: CloudTranscription, offset: Double, length: Double, local: [TranscriptSegment], isLast: Bool) -> [TranscriptSegment] {
        if let timed = result.segments {
            return timed.map {
                TranscriptSegment(text: $0.text, startSeconds: $0.startSeconds + offset, endSeconds: $0.endSeconds + offset)
            }
        }
        let end = offset + length
        let inside = local.filter { $0.startSeconds >= offset && ($0.startSeconds < end || isLast) }
        return TranscriptAligner.distribute(result.text, over: inside, fallbackSpan: (offset, end))
    }
}

/// How far a re-transcription has come, for a progress line.
public enum CloudRetranscriptionProgress: Sendable, Equatable, CustomStringConvertible {
    /// Part `part` (from 1) of `of` is being uploaded and transcribed; `of` is 1 for a file sent whole.
    case uploading(part: Int, of: Int)

    /// "Uploading the audio…", or "Uploading part 2 of 3…" for a recording cut into pieces.
    public var description: String {
        switch self {
        case .uploading(_, 1): return "Uploading the audio…"
        case .uploading(let part, let count): return "Uploading part \(part) of \(count)…"
        }
    }
}
