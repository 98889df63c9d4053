import Foundation

/// A span of an audio file, in frames.
public struct AudioPiece: Sendable, Equatable {
    /// First frame, from the start of the file.
    public var startFrame: Int
    /// Frames in the piece; more than 0.
    public var frameCount: Int

    public init(startFrame: Int, frameCount: Int) {
        self.startFrame = startFrame
        self.frameCount = frameCount
    }
}

/// How to upload a recording to a transcription API whose request bodies must stay under a limit.
///
/// A file that fits with room for the multipart envelope is sent whole, in its own format. A longer
/// one is cut into 16-bit PCM WAV pieces, each at most `maximumPieceBytes` including its 44-byte
/// header, preferably at a pause between transcript segments (the latest pause in the second half of
/// the piece), else exactly at the limit.
public enum UploadPlan {
    /// OpenAI's limit on a transcription request: 25 MB. Kept below in bytes with margin.
    public static let requestLimitBytes = 25_000_000
    /// Room left for the multipart envelope and form fields.
    public static let envelopeBytes = 64 * 1024
    /// The largest audio file or piece sent.
    public static var maximumPieceBytes: Int { requestLimitBytes - envelopeBytes }

    /// True when a file of `fileBytes` can be sent as it is.
    public static func fitsWhole(fileBytes: Int, limit: Int = maximumPieceBytes) -> Bool {
        fileBytes <= limit
    }

    /// The pieces of a file of `totalFrames` frames when written as 16-bit WAV pieces.
    ///
    /// - Parameters:
    ///   - totalFrames: Frames in the file.
    ///   - channels: Channels per frame (each sample 2 bytes).
    ///   - sampleRate: Frames per second, to place `preferredCutSeconds`.
    ///   - preferredCutSeconds: Good places to cut (pauses), seconds from the start, any order.
    ///   - maximumBytes: Largest piece file, header included.
    /// - Returns: Consecutive pieces covering every frame; empty for an empty file.
    public static func pieces(
        totalFrames: Int, channels: Int, sampleRate: Int, preferredCutSeconds: [Double] = [],
        maximumBytes: Int = maximumPieceBytes
    ) -> [AudioPiece] {
        guard totalFrames > 0 else { return [] }
        let bytesPerFrame = 2 * max(1, channels)
        let framesPerPiece = max(1, (maximumBytes - 44) / bytesPerFrame)
        let cuts = preferredCutSeconds
            .filter { $0.isFinite && $0 > 0 }
            .map { Int(($0 * Double(max(1, sampleRate))).rounded()) }
            .filter { $0 > 0 && $0 < totalFrames }
            .sorted()
        var pieces: [AudioPiece] = []
        var start = 0
        while start < totalFrames {
            var end = min(totalFrames, start + framesPerPiece)
            if end < totalFrames, let cut = cuts.last(where: { $0 <= end && $0 > start + framesPerPiece / 2 }) {
                end = cut
            }
            pieces.append(AudioPiece(startFrame: start, frameCount: end - start))
            start = end
        }
        return pieces
    }

    /// The pauses between consecutive segments: the middle of each gap, in seconds.
    public static func pauses(between segments: [TranscriptSegment]) -> [Double] {
        let sorted = SegmentSanitizer.sanitize(segments)
        return zip(sorted, sorted.dropFirst()).map { ($0.endSeconds + $1.startSeconds) / 2 }
    }
}
