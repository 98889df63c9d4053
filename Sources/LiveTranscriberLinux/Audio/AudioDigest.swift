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
    /// - Complexity: one decoding pass over the file, in blocks of 64 K frames.
    public static func of(path: String) throws -> String {
        let reader = try SndFileReader(path: path)
        guard let context = EVP_MD_CTX_new() else { throw AudioFileError.readFailed(path: path, reason: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        let header = Array("rate=\(reader.format.sampleRate);channels=\(reader.format.channels);".utf8)
        EVP_DigestUpdate(context, header, header.count)
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
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return "sha256:" + digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
