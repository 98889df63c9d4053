import Foundation

/// A SHA-256 implementation, supplied by the platform (OpenSSL on Linux, CryptoKit on iOS): the
/// core states the bytes to hash, the platform hashes them.
public protocol SHA256Hashing {
    /// Adds `bytes` to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The 32-byte digest of every byte added.
    mutating func finalize() -> [UInt8]
}

/// The content digest of audio (`Recording.audioDigest`): what it sounds like, not how it is
/// packed, so the same samples in WAV, FLAC or M4A, with any tags or headers, give the same digest
/// on every platform, and any changed sample gives another.
///
/// The rule: SHA-256 over the ASCII header `rate=<Hz>;channels=<n>;`, then every sample,
/// interleaved, as 16-bit little-endian (a float sample x becomes x × 32768, rounded to nearest,
/// clamped to -32768...32767; a 16-bit sample is taken as it is), written `sha256:<64 hex digits>`.
///
/// ```swift
/// var digest = AudioContentDigest(sampleRate: 16_000, channels: 1, hasher: OpenSSLSHA256())
/// digest.add(samples: block.samples)
/// let text = digest.finish()   // "sha256:…"
/// ```
public struct AudioContentDigest<Hasher: SHA256Hashing> {
    private var hasher: Hasher
    /// Quantized samples waiting to be hashed, as little-endian bytes (hashed in 64 KB steps).
    private var pending: [UInt8] = []
    private static var flushBytes: Int { 65_536 }

    /// Starts a digest of audio at `sampleRate` Hz with `channels` interleaved channels.
    public init(sampleRate: Int, channels: Int, hasher: Hasher) {
        self.hasher = hasher
        let header = Array("rate=\(sampleRate);channels=\(channels);".utf8)
        header.withUnsafeBytes { self.hasher.update($0) }
        pending.reserveCapacity(Self.flushBytes)
    }

    /// The 16-bit value a float sample is hashed as: x × 32768, rounded to nearest, clamped.
    public static func quantized(_ sample: Float) -> Int16 {
        Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))
    }

    /// Adds one sample (frames interleaved: every channel of a frame before the next frame).
    public mutating func add(_ sample: Float) {
        add(int16: Self.quantized(sample))
    }

    /// Adds interleaved float samples in -1...1.
    public mutating func add(samples: some Sequence<Float>) {
        for sample in samples { add(int16: Self.quantized(sample)) }
    }

    /// Adds interleaved 16-bit samples as they are stored (no conversion).
    public mutating func add(int16Samples samples: some Sequence<Int16>) {
        for sample in samples { add(int16: sample) }
    }

    /// Adds interleaved 16-bit samples already laid out as the rule hashes them (little-endian
    /// bytes, two per sample), without copying: a WAV or FLAC file stored as 16-bit, read as stored.
    public mutating func add(littleEndianInt16 bytes: UnsafeRawBufferPointer) {
        flush()
        hasher.update(bytes)
    }

    private mutating func add(int16 value: Int16) {
        pending.append(UInt8(truncatingIfNeeded: value))
        pending.append(UInt8(truncatingIfNeeded: value >> 8))
        if pending.count >= Self.flushBytes { flush() }
    }

    private mutating func flush() {
        pending.withUnsafeBytes { hasher.update($0) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The digest of everything added: `sha256:` and 64 lowercase hex digits.
    public mutating func finish() -> String {
        flush()
        return "sha256:" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
