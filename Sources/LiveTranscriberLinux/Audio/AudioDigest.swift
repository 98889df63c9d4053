import CCrypto
import Foundation
import LiveTranscriberCore

/// SHA-256 from OpenSSL (libcrypto), for the core's `AudioContentDigest`.
struct OpenSSLSHA256: SHA256Hashing {
    private final class Context {
        let pointer: OpaquePointer
        init() {
            guard let pointer = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context (out of memory)") }
            self.pointer = pointer
            EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
        }
        deinit { EVP_MD_CTX_free(pointer) }
    }
    private let context = Context()

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        EVP_DigestUpdate(context.pointer, bytes.baseAddress, bytes.count)
    }

    mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context.pointer, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}

/// The content digest of an audio file (`AudioContentDigest`, the core's rule), decoded by libsndfile
/// (every link of a chained Ogg Opus or Vorbis file by libopusfile or libvorbisfile).
public enum AudioDigest {
    /// The digest of the audio in the file at `path`: "sha256:<64 hex digits>".
    /// - Throws: `AudioFileError` when libsndfile cannot open or read it.
    /// - Complexity: one decoding pass over the file, in blocks of 64 K frames; files stored as
    ///   16-bit integers are hashed as stored, without converting a sample.
    public static func of(path: String) throws -> String {
        let reader = try SndFileReader(path: path)
        // A chained Ogg file: every link, as it is imported (libsndfile would give the first link's
        // digest, and the chain would pass for a file holding that link alone). A single link keeps
        // libsndfile's digest, the one recordings imported before were given.
        if reader.oggCodec != nil, let chained = try AudioFileReader.open(path: path) as? any OggChainReader, chained.chain.linkChannels.count > 1 {
            var digest = AudioContentDigest(sampleRate: chained.format.sampleRate, channels: chained.format.channels, hasher: OpenSSLSHA256())
            while let buffer = try chained.read(maxFrames: 65_536) { digest.add(samples: buffer.samples) }
            return digest.finish()
        }
        var digest = AudioContentDigest(sampleRate: reader.format.sampleRate, channels: reader.format.channels, hasher: OpenSSLSHA256())
        if reader.storesInt16 {
            // The same bytes the float rule gives (a 16-bit sample v reads as v / 32768, which
            // scales back to v exactly), taken as stored: no conversion.
            let buffer = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 65_536 * reader.format.channels)
            defer { buffer.deallocate() }
            while case let frames = try reader.readInt16(into: buffer), frames > 0 {
                let count = frames * reader.format.channels
                if Int16(littleEndian: 1) != 1 {  // a big-endian machine: bytes as the rule writes them
                    for index in 0..<count { buffer[index] = buffer[index].littleEndian }
                }
                digest.add(littleEndianInt16: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<(count * 2)]))
            }
            return digest.finish()
        }
        while let buffer = try reader.read(maxFrames: 65_536) {
            digest.add(samples: buffer.samples)
        }
        return digest.finish()
    }
}
