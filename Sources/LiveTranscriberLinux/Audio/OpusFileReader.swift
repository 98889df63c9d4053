import COpusFile
import Foundation
import LiveTranscriberCore

/// Reads an Ogg Opus file to its end with libopusfile, across every link of a chained file
/// (`OggChainLayout`), always at 48 kHz (Opus's decoding rate, whatever rate the encoder was given).
///
/// libsndfile reads Ogg Opus too, but only the first link: `cat a.opus b.opus > c.opus` read as
/// a.opus alone, without a word.
public final class OpusFileReader: OggChainReader {
    private let handle: OpaquePointer
    private let path: String
    public let format: AudioFormat
    /// Every link's samples after pre-skip and end trimming, summed (libopusfile's `op_pcm_total`);
    /// nil when the file is read as a stream (`OggPageScan`: serial numbers that repeat).
    public let totalFrames: Int?
    /// True when the file is read link after link as a stream, not searched as a seekable file.
    let streaming: Bool
    /// The links and the layout they are read in.
    public let chain: OggChainLayout
    private var pending: PendingFrames
    /// One packet of the widest link: at most 120 ms (5,760 frames at 48 kHz) per `op_read_float`.
    private var block: [Float]

    /// Opens `path` and reads the headers of every link.
    /// - Throws: `AudioFileError.unsupportedFormat` when libopusfile cannot open it (not Ogg Opus,
    ///   or a link whose headers are damaged: the reason names libopusfile's error).
    public init(path: String) throws {
        var error: Int32 = 0
        guard var handle = op_open_file(path, &error) else {
            throw AudioFileError.unsupportedFormat(path: path, reason: "libopusfile: \(Self.describe(error))")
        }
        var channels = (0..<op_link_count(handle)).map { Int(op_channel_count(handle, $0)) }
        var total = op_pcm_total(handle, -1)
        // More links on the pages than libopusfile found: serial numbers repeat. Read as a stream.
        let scanned = OggPageScan.links(path: path) ?? []
        streaming = scanned.count > channels.count
        if streaming {
            op_free(handle)
            guard let stream = lt_op_open_stream_only(path, &error) else {
                throw AudioFileError.unsupportedFormat(path: path, reason: "libopusfile: \(Self.describe(error))")
            }
            handle = stream
            channels = OggPageScan.opusChannels(scanned)
            total = -1
        }
        guard !channels.isEmpty, channels.allSatisfy({ $0 > 0 }) else {
            op_free(handle)
            throw AudioFileError.unsupportedFormat(path: path, reason: "libopusfile: no link with audio channels")
        }
        self.handle = handle
        self.path = path
        chain = OggChainLayout(linkChannels: channels)
        format = AudioFormat(sampleRate: 48_000, channels: chain.channels)
        totalFrames = total >= 0 ? Int(total) : nil
        pending = PendingFrames(channels: chain.channels)
        block = [Float](repeating: 0, count: 5_760 * max(channels.max() ?? 1, 8))
    }

    deinit { op_free(handle) }

    /// True when `path` starts as an Ogg Opus file does (libopusfile's `op_test` on its first page).
    public static func isOggOpus(path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 4_096), head.count >= 47 else { return false }
        return head.withUnsafeBytes { op_test(nil, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) } == 0
    }

    /// - Throws: `AudioFileError.readFailed` naming the link ("link 2 of 2: …") when a packet
    ///   cannot be decoded. A hole in the data (a lost or damaged page, `OP_HOLE`) is skipped, as
    ///   libopusfile intends: the samples after it are still read.
    public func read(maxFrames: Int) throws -> AudioBuffer? {
        try pending.read(maxFrames: maxFrames) { output in
            var link: Int32 = 0
            let frames = block.withUnsafeMutableBufferPointer { op_read_float(handle, $0.baseAddress, Int32($0.count), &link) }
            if frames == OP_HOLE { return true }
            if frames < 0 {
                let which = streaming ? "a link" : "link \(Int(op_current_link(handle)) + 1) of \(chain.linkChannels.count)"
                throw AudioFileError.readFailed(path: path, reason: "\(which) of the Ogg Opus stream cannot be decoded "
                    + "(libopusfile: \(Self.describe(frames)))")
            }
            guard frames > 0 else { return false }
            let channels = Int(op_channel_count(handle, streaming ? -1 : link))
            block.withUnsafeBufferPointer { chain.append($0, frames: Int(frames), channels: channels, to: &output) }
            return true
        }
    }

    /// libopusfile's error codes in words.
    static func describe(_ code: Int32) -> String {
        switch code {
        case OP_EREAD: return "the file could not be read"
        case OP_EFAULT: return "out of memory or an internal error"
        case OP_EIMPL: return "a feature it does not implement"
        case OP_EINVAL: return "invalid arguments"
        case OP_ENOTFORMAT: return "not Ogg Opus"
        case OP_EBADHEADER: return "a damaged Opus header"
        case OP_EVERSION: return "an unknown Opus version"
        case OP_EBADLINK: return "a link that could not be found again"
        case OP_EBADTIMESTAMP: return "an invalid timestamp"
        case OP_EBADPACKET: return "a damaged audio packet"
        case OP_ENOTAUDIO: return "a stream that is not audio"
        case OP_ENOSEEK: return "a stream that cannot seek"
        default: return "error \(code)"
        }
    }
}
