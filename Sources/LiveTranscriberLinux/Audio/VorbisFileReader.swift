import CVorbisFile
import Foundation
import LiveTranscriberCore

/// Reads an Ogg Vorbis file to its end with libvorbisfile, across every link of a chained file
/// (`OggChainLayout`: internet radio recordings are often such chains).
///
/// libsndfile reads Ogg Vorbis too, but only the first link, without a word. Links at different
/// sample rates are refused with one line (the recognizers and the stored audio take one rate).
public final class VorbisFileReader: OggChainReader {
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let path: String
    public let format: AudioFormat
    /// Every link's frames, summed (libvorbisfile's `ov_pcm_total`); nil when the file is read as
    /// a stream (`OggPageScan`: serial numbers that repeat).
    public let totalFrames: Int?
    /// True when the file is read link after link as a stream, not searched as a seekable file.
    let streaming: Bool
    /// The links and the layout they are read in.
    public let chain: OggChainLayout
    private var pending: PendingFrames
    private var interleaved: [Float] = []

    /// Opens `path` and reads the headers of every link.
    /// - Throws: `AudioFileError.unsupportedFormat` when libvorbisfile cannot open it;
    ///   `.readFailed` when its links differ in sample rate ("… chained Ogg Vorbis streams at
    ///   different sample rates (44100, 22050 Hz) …"). A rate outside `AudioFormat.supportedSampleRates`
    ///   is refused before this runs: `AudioFileReader.open` reads the first link's header with libsndfile.
    public init(path: String) throws {
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let opened = ov_fopen(path, file)
        guard opened == 0 else {
            file.deallocate()  // ov_fopen frees what it opened when it fails
            throw AudioFileError.unsupportedFormat(path: path, reason: "libvorbisfile: \(Self.describe(opened))")
        }
        // From here a throw clears the handle (a failed initializer runs no deinit).
        func fail(_ error: AudioFileError) -> AudioFileError {
            ov_clear(file)
            file.deallocate()
            return error
        }
        var layouts = (0..<Int(ov_streams(file))).compactMap { ov_info(file, Int32($0))?.pointee }.map { (channels: Int($0.channels), rate: $0.rate) }
        // More links on the pages than libvorbisfile found: serial numbers repeat. Read as a stream.
        let scanned = OggPageScan.links(path: path) ?? []
        streaming = scanned.count > layouts.count
        if streaming {
            ov_clear(file)
            let reopened = lt_ov_open_stream_only(path, file)
            guard reopened == 0 else {
                file.deallocate()
                throw AudioFileError.unsupportedFormat(path: path, reason: "libvorbisfile: \(Self.describe(reopened))")
            }
            layouts = OggPageScan.vorbisLayouts(scanned)
        }
        guard !layouts.isEmpty, layouts.allSatisfy({ $0.channels > 0 && $0.rate > 0 }) else {
            throw fail(.unsupportedFormat(path: path, reason: "libvorbisfile: no link with audio channels"))
        }
        let rates = layouts.map(\.rate)
        guard Set(rates).count == 1 else {
            let list = rates.map(String.init).joined(separator: ", ")
            throw fail(.readFailed(path: path, reason: "it is \(layouts.count) chained Ogg Vorbis streams at different sample rates (\(list) Hz), "
                + "which are not read as one recording; nothing of it is read"))
        }
        let total = streaming ? -1 : ov_pcm_total(file, -1)
        self.file = file
        self.path = path
        chain = OggChainLayout(linkChannels: layouts.map(\.channels))
        format = AudioFormat(sampleRate: rates[0], channels: chain.channels)
        totalFrames = total >= 0 ? Int(total) : nil
        pending = PendingFrames(channels: chain.channels)
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    /// - Throws: `AudioFileError.readFailed` naming the link when the stream is damaged past what
    ///   libvorbisfile can skip. A hole in the data (`OV_HOLE`, a lost page) is skipped.
    public func read(maxFrames: Int) throws -> AudioBuffer? {
        try pending.read(maxFrames: maxFrames) { output in
            var channelData: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var link: Int32 = 0
            let frames = Int(ov_read_float(file, &channelData, 4_096, &link))
            if frames == Int(OV_HOLE) { return true }
            if frames < 0 {
                let which = streaming ? "a link" : "link \(Int(link) + 1) of \(chain.linkChannels.count)"
                throw AudioFileError.readFailed(path: path, reason: "\(which) of the Ogg Vorbis stream cannot be decoded (libvorbisfile: \(Self.describe(Int32(frames))))")
            }
            guard frames > 0, let channelData else { return false }
            let channels = Int(ov_info(file, streaming ? -1 : link)?.pointee.channels ?? 1)
            interleaved.removeAll(keepingCapacity: true)
            for frame in 0..<frames {
                for channel in 0..<channels { interleaved.append(channelData[channel]?[frame] ?? 0) }
            }
            interleaved.withUnsafeBufferPointer { chain.append($0, frames: frames, channels: channels, to: &output) }
            return true
        }
    }

    /// libvorbisfile's error codes in words.
    static func describe(_ code: Int32) -> String {
        switch code {
        case OV_EREAD: return "the file could not be read"
        case OV_EFAULT: return "an internal error"
        case OV_EIMPL: return "a feature it does not implement"
        case OV_EINVAL: return "invalid arguments"
        case OV_ENOTVORBIS: return "not Ogg Vorbis"
        case OV_EBADHEADER: return "a damaged Vorbis header"
        case OV_EVERSION: return "an unknown Vorbis version"
        case OV_ENOTAUDIO: return "a stream that is not audio"
        case OV_EBADPACKET: return "a damaged audio packet"
        case OV_EBADLINK: return "a link that could not be found again"
        case OV_ENOSEEK: return "a stream that cannot seek"
        default: return "error \(code)"
        }
    }
}
