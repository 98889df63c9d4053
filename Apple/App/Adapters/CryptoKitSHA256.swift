import CryptoKit
import LiveTranscriberCore

/// The core's `SHA256Hashing` over CryptoKit's `SHA256` (OpenSSL's role on Linux): the core's
/// `AudioContentDigest` says which bytes to hash, this hashes them.
struct CryptoKitSHA256: SHA256Hashing {
    private var hash = SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) { hash.update(bufferPointer: bytes) }

    mutating func finalize() -> [UInt8] { Array(hash.finalize()) }
}
