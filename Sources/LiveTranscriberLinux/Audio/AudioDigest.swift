import CCrypto
import Foundation
import LiveTranscriberCore

/// The digest of an audio file's content: what it sounds like, not how it is packed.
///
/// SHA-256 (OpenSSL) over the sample rate, the channel count and every decoded sample as 16-bit
/// little-endian, so the same audio as WAV or FLAC, or with other tags or headers, has the same
/// digest, while any change to the samples gives another. Written "sha256:<64 hex digits>".
public enum AudioDigest {
    /// The digest of the audio in the file at `path`.
    /// - Throws: `AudioFileError` when libsndfile cannot open or read it.
    /// - Complexity: one decoding pass over the file, in blocks of 64 K frames; files stored as
    ///   16-bit integers are hashed as stored, without converting a sample.
    public static func of(path: String) throws -> String {
        let reader = try SndFileReader(path: path)
        guard let context = EVP_MD_CTX_new() else { throw AudioFileError.readFailed(path: path, reason: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        let header = Array("rate=\(reader.format.sampleRate);channels=\(reader.format.channels);".utf8)
        EVP_DigestUpdate(context, header, header.count)
        if reader.storesInt16 {
            // The same bytes the rule below gives (a 16-bit sample v reads as v / 32768, which
            // scales back to v exactly), taken as stored: no conversion, one pass of SHA-256.
            let buffer = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 65_536 * reader.format.channels)
            defer { buffer.deallocate() }
            while case let frames = try reader.readInt16(into: buffer), frames > 0 {
                let count = frames * reader.format.channels
                if Int16(littleEndian: 1) != 1 {  // a big-endian machine: bytes as the rule writes them
                    for index in 0..<count { buffer[index] = buffer[index].littleEndian }
                }
                EVP_DigestUpdate(context, buffer.baseAddress, count * 2)
            }
            return finish(context)
        }
        var bytes: [UInt8] = []
        while let buffer = try reader.read(maxFrames: 65_536) {
            bytes.removeAll(keepingCapacity: true)
            bytes.reserveCapacity(buffer.samples.count * 2)
            for sample in buffer.samples {
                let value = Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))
                bytes.append(UInt8(truncatingIfNeeded: value))
                bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            }
            EVP_DigestUpdate(context, bytes, bytes.count)
        }
        return finish(context)
    }

    private static func finish(_ context: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return "sha256:" + digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
