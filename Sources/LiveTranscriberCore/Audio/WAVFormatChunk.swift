import Foundation

/// The rule for the `fmt ` chunk of a saved WAV file: plain PCM (format tag 1) where it is enough.
///
/// libsndfile writes RF64-capable files (`SF_FORMAT_RF64`, downgraded to WAV under 4 GiB) with a
/// `WAVE_FORMAT_EXTENSIBLE` (0xFFFE) `fmt ` chunk even for mono or stereo 16-bit PCM, where
/// Microsoft's own guidance and most tools expect format tag 1; some players and editors refuse
/// the extensible form. Extensible is needed only for more than 2 channels or more than 16 bits.
public enum WAVFormatChunk {
    /// The KSDATAFORMAT_SUBTYPE_PCM GUID's last 14 bytes (its first two are the format tag, 1).
    static let pcmGUIDTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// The patch that turns an extensible `fmt ` chunk of mono or stereo 16-bit PCM into plain PCM,
    /// in place: a 16-byte `fmt ` chunk (tag 1) followed by a 16-byte `JUNK` chunk filling the 24
    /// bytes the extension took, so no other byte of the file moves. Nil when the file is not a
    /// `RIFF`/`WAVE` file (RF64 is left as it is), has no such chunk in `header`, or needs the
    /// extensible form (more than 2 channels, more than 16 bits, valid bits not 16, not PCM).
    ///
    /// - Parameter header: The file's first bytes (256 are enough for the files we write).
    public static func plainPCMPatch(header: [UInt8]) -> WAVPatch? {
        guard header.count >= 12, header[0..<4] == [0x52, 0x49, 0x46, 0x46], header[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            return nil
        }
        var offset = 12
        while offset + 8 <= header.count {
            let id = Array(header[offset..<offset + 4])
            let size = Int(le32(header, offset + 4))
            if id == Array("fmt ".utf8) {
                let body = offset + 8
                guard size == 40, body + 40 <= header.count, le16(header, body) == 0xFFFE else { return nil }
                let channels = le16(header, body + 2), bits = le16(header, body + 14)
                let validBits = le16(header, body + 18), subformat = Array(header[body + 24..<body + 40])
                guard (1...2).contains(channels), bits == 16, validBits == 16,
                      subformat == [0x01, 0x00] + pcmGUIDTail else { return nil }
                var bytes = Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0]
                bytes += Array(header[body + 2..<body + 16])  // channels, rate, byte rate, block align, bits
                bytes += Array("JUNK".utf8) + [16, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
                return WAVPatch(offset: UInt64(offset), bytes: bytes)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
