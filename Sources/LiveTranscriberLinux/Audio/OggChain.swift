import COpusFile
import Foundation
import LiveTranscriberCore

/// The links of a chained Ogg stream (`cat a.opus b.opus > c.opus`, as streamers and recorders
/// write them: one logical stream after another, each with its own headers) and the one channel
/// layout they are all read in.
///
/// libsndfile reads only the first link of such a file and says nothing; `OpusFileReader` and
/// `VorbisFileReader` read every link. Links may differ in their channel count: then every link is
/// mixed down to mono (the mean of its channels), the layout the recognizers use anyway.
public struct OggChainLayout: Equatable, Sendable {
    /// The channel count of each link, in the order they follow each other; never empty.
    public let linkChannels: [Int]

    /// The channel count every link is read in: the links' own when they all agree, else 1.
    public var channels: Int { Set(linkChannels).count == 1 ? linkChannels[0] : 1 }

    /// True when the links differ in their channel count, so they are mixed down to mono.
    public var mixesDown: Bool { Set(linkChannels).count > 1 }

    /// The note for a chain whose links are mixed down: "note: c.opus is 2 chained Ogg Opus
    /// streams with 1 and 2 channels; all of them are read, mixed down to mono". Nil otherwise.
    public func note(shown: String, codec: String) -> String? {
        guard mixesDown else { return nil }
        let counts = linkChannels.map(String.init)
        let list = counts.count == 2 ? counts.joined(separator: " and ")
            : counts.dropLast().joined(separator: ", ") + " and " + counts[counts.count - 1]
        return "note: \(shown) is \(linkChannels.count) chained \(codec) streams with \(list) channels; all of them are read, mixed down to mono"
    }

    /// Appends `frames` interleaved frames of `channels` channels to `output` in this layout's
    /// channel count: as they are when the counts agree, else the mean of each frame's channels.
    func append(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int, to output: inout [Float]) {
        if channels == self.channels {
            output.append(contentsOf: samples[0..<(frames * channels)])
            return
        }
        let scale = 1 / Float(channels)
        output.reserveCapacity(output.count + frames)
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<channels { sum += samples[frame * channels + channel] }
            output.append(sum * scale)
        }
    }
}

/// A reader of every link of a chained Ogg file.
public protocol OggChainReader: AudioSource {
    /// The links and the layout they are read in.
    var chain: OggChainLayout { get }
}

/// Frames decoded ahead of what was asked for, handed out first on the next read.
struct PendingFrames {
    private var samples: [Float] = []
    let channels: Int

    init(channels: Int) { self.channels = channels }

    var frames: Int { samples.count / channels }

    /// Decodes with `decode` (which appends to the array it is given and returns false at the end
    /// of the stream) until `maxFrames` frames are held or the stream ends; hands out at most
    /// `maxFrames` of them, or nil when nothing is left.
    mutating func read(maxFrames: Int, decode: (inout [Float]) throws -> Bool) throws -> AudioBuffer? {
        while frames < maxFrames, try decode(&samples) {}
        guard !samples.isEmpty else { return nil }
        let count = min(maxFrames, frames) * channels
        let out = Array(samples[0..<count])
        samples.removeFirst(count)
        return AudioBuffer(samples: out, channels: channels)
    }
}

/// The links of an Ogg file as its pages show them (libogg's page sync), whatever their serial
/// numbers: a link starts with a run of beginning-of-stream pages (one per stream it multiplexes)
/// after pages of the link before.
///
/// libopusfile and libvorbisfile find the links of a seekable file by a bisection search on serial
/// numbers, which takes a link whose serial number repeats an earlier one's (`cat a.opus b.opus
/// a.opus`: the same file twice) for that earlier link and skips what lies between. When this walk
/// counts more links than they do, the file is read as a stream instead, link after link.
enum OggPageScan {
    /// The first packet of every stream that starts in each link (its codec's identification
    /// header, at most 64 bytes of it), link by link; nil when the file cannot be read.
    /// - Complexity: reads the whole file once, decoding nothing.
    static func links(path: String) -> [[[UInt8]]]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var page = ogg_page()
        var links: [[[UInt8]]] = []
        var previousStarted = false
        while true {
            let result = ogg_sync_pageout(&sync, &page)
            if result == 1 {
                let starts = ogg_page_bos(&page) != 0
                if starts {
                    let body = Array(UnsafeBufferPointer(start: page.body, count: min(Int(page.body_len), 64)))
                    if previousStarted { links[links.count - 1].append(body) } else { links.append([body]) }
                }
                previousStarted = starts
                continue
            }
            if result < 0 { continue }  // bytes skipped to the next page
            guard let chunk = try? file.read(upToCount: 65_536), !chunk.isEmpty else { break }
            guard let buffer = ogg_sync_buffer(&sync, chunk.count) else { return nil }
            chunk.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: chunk.count)
            ogg_sync_wrote(&sync, chunk.count)
        }
        return links
    }

    /// The channel count in each link's Opus identification header ("OpusHead", byte 9); links
    /// without one are left out.
    static func opusChannels(_ links: [[[UInt8]]]) -> [Int] {
        links.compactMap { streams in
            streams.first { $0.count > 9 && $0.starts(with: Array("OpusHead".utf8)) }.map { Int($0[9]) }
        }
    }

    /// The channel count and sample rate in each link's Vorbis identification header
    /// ("\u{1}vorbis", byte 11 and the little-endian 32 bits at 12); links without one are left out.
    static func vorbisLayouts(_ links: [[[UInt8]]]) -> [(channels: Int, rate: Int)] {
        links.compactMap { streams in
            streams.first { $0.count > 15 && $0.starts(with: [1] + Array("vorbis".utf8)) }.map { header in
                (Int(header[11]), header[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) })
            }
        }
    }
}
