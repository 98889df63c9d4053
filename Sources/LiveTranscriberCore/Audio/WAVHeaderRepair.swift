import Foundation

/// What a WAV file's header says about its audio, after any repair.
public struct WAVLayout: Sendable, Equatable {
    /// 1 for PCM, 3 for IEEE float, 0xFFFE for WAVE_FORMAT_EXTENSIBLE.
    public var formatTag: UInt16
    public var channels: Int
    /// Frames per second (Hz).
    public var sampleRate: Int
    public var bitsPerSample: Int
    /// Bytes per frame (all channels).
    public var blockAlign: Int
    /// Byte offset of the first audio byte (just after the `data` chunk header).
    public var dataOffset: UInt64
    /// Bytes of audio in the `data` chunk.
    public var dataSize: UInt64
    /// The `data` size the header stated before any repair (for RF64, the `ds64` one).
    public var declaredDataSize: UInt64 = 0
    /// True for RF64 (or BW64): 64-bit sizes in a `ds64` chunk, for files past 4 GiB.
    public var isRF64 = false

    /// True when the header stated no usable length: a `data` size of 0 or 0xFFFFFFFF with audio
    /// after it, or more than the file holds, as a writer that never finished leaves it.
    public func headerWasUnfinished(fileSize: UInt64) -> Bool {
        let available = fileSize - min(fileSize, dataOffset)
        return (declaredDataSize == 0 && available > 0) || declaredDataSize == 0xFFFF_FFFF || declaredDataSize > available
    }

    /// Seconds of audio the header stated before any repair (`declaredDataSize`); nil when it
    /// stated no length (a `data` size of 0 or 0xFFFFFFFF, the placeholders writers put first) or
    /// the format is degenerate. Compare with `durationSeconds`, the audio really there.
    public var declaredSeconds: Double? {
        guard declaredDataSize != 0, declaredDataSize != 0xFFFF_FFFF, sampleRate > 0, blockAlign > 0 else { return nil }
        return Double(declaredDataSize / UInt64(blockAlign)) / Double(sampleRate)
    }

    /// What an unfinished header stated, in words: "it states no length" or "it states 37:16:57
    /// of audio, more than the file holds" (for notes to the user).
    public var unfinishedHeaderStatement: String {
        guard let stated = declaredSeconds else { return "it states no length" }
        return "it states \(ElapsedTimeFormat.clock(stated)) of audio, more than the file holds"
    }

    /// True when every frame takes exactly `blockAlign` bytes, one whole-byte sample per channel
    /// (PCM, IEEE float, A-law, µ-law; `blockAlign == channels × ⌈bitsPerSample / 8⌉`), so the
    /// frames are `dataSize / blockAlign`. False for compressed encodings such as ADPCM, whose
    /// blocks pack many frames: their length is not in these sizes.
    public var isUncompressed: Bool {
        channels > 0 && bitsPerSample > 0 && blockAlign == channels * ((bitsPerSample + 7) / 8)
    }

    /// Seconds of audio: `dataSize / (sampleRate × blockAlign)`; 0 when the format is degenerate.
    public var durationSeconds: Double {
        guard sampleRate > 0, blockAlign > 0 else { return 0 }
        return Double(dataSize / UInt64(blockAlign)) / Double(sampleRate)
    }
}

/// Bytes to write at an offset of the file.
public struct WAVPatch: Sendable, Equatable {
    public var offset: UInt64
    public var bytes: [UInt8]

    public init(offset: UInt64, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
    }
}

/// What to do to a WAV file.
public enum WAVRepairPlan: Sendable, Equatable {
    /// The header matches the bytes present: change nothing.
    case healthy(WAVLayout)
    /// Write `patches`, then make the file `fileSize` bytes long (dropping a partial frame, or adding
    /// the pad byte an odd-sized `data` chunk needs).
    case repair(WAVLayout, patches: [WAVPatch], fileSize: UInt64)

    /// The layout after the plan is carried out.
    public var layout: WAVLayout {
        switch self {
        case .healthy(let layout), .repair(let layout, _, _): layout
        }
    }
}

/// Why a file could not be read as WAV.
public enum WAVRepairError: Error, Equatable, CustomStringConvertible {
    case notWAV
    case missingFormat
    case missingData
    case missingDS64

    public var description: String {
        switch self {
        case .notWAV: "the file is not a RIFF/WAVE file"
        case .missingFormat: "the WAV file has no readable 'fmt ' chunk"
        case .missingData: "the WAV file has no 'data' chunk"
        case .missingDS64: "the RF64 file has no 'ds64' chunk with its sizes"
        }
    }
}

/// Rewrites the sizes of a WAV file left by a crash from the bytes actually present.
///
/// A recorder that is killed leaves a header whose RIFF and `data` sizes are 0, a placeholder such
/// as 0xFFFFFFFF, or the sizes of its last header update (at most a second behind). The audio bytes
/// are all there: this computes the sizes they imply. A file whose `data` chunk is followed by
/// well-formed chunks (a `LIST` chunk, say) is healthy and never changed. Chunks of odd size are
/// followed by a pad byte, as RIFF requires.
///
/// Pure: it reads through `read` and returns a plan; `WAVFileRepair` (Linux) applies it to a file.
///
/// ```swift
/// let plan = try WAVHeaderRepair.plan(fileSize: UInt64(data.count)) { offset, count in ... }
/// ```
public enum WAVHeaderRepair {
    /// Placeholder sizes that streaming writers put in a header before they know the length.
    static let placeholders: Set<UInt32> = [0, 0xFFFF_FFFF]

    /// Plans the repair of a WAV file of `fileSize` bytes.
    ///
    /// - Parameters:
    ///   - fileSize: The file's length in bytes.
    ///   - read: Returns up to `count` bytes at `offset` (fewer at the end of the file).
    /// - Returns: `.healthy` or the patches that make the header match the bytes present.
    /// - Throws: `WAVRepairError` when the file is not WAV or lacks a `fmt ` or `data` chunk header.
    /// - Complexity: O(chunks); reads only chunk headers, never the audio.
    public static func plan(fileSize: UInt64, read: (UInt64, Int) throws -> Data) throws -> WAVRepairPlan {
        let head = [UInt8](try read(0, 12))
        guard head.count == 12, head[8..<12] == waveTag[...] else { throw WAVRepairError.notWAV }
        let isRF64 = head[0..<4] == rf64Tag[...] || head[0..<4] == bw64Tag[...]
        guard isRF64 || head[0..<4] == riffTag[...] else { throw WAVRepairError.notWAV }
        let riffSize32 = littleEndian32(head, 4)

        // Walk the chunks up to `data`.
        var offset: UInt64 = 12
        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int, align: Int)?
        var data: (offset: UInt64, declared: UInt64)?
        var ds64: (body: UInt64, riff: UInt64, data: UInt64)?
        while offset + 8 <= fileSize {
            let header = [UInt8](try read(offset, 8))
            guard header.count == 8 else { break }
            let size = littleEndian32(header, 4)
            if header[0..<4] == dataTag[...] {
                let declared = isRF64 && size == 0xFFFF_FFFF ? ds64?.data ?? UInt64(size) : UInt64(size)
                data = (offset + 8, declared)
                break
            }
            // A `ds64` chunk holds the RIFF size, data size and sample count (8 bytes each) that a
            // repair writes: a shorter one would have them written over the chunks after it.
            if isRF64, header[0..<4] == ds64Tag[...], size >= 24 {
                let body = [UInt8](try read(offset + 8, 16))
                if body.count == 16 { ds64 = (offset + 8, littleEndian64(body, 0), littleEndian64(body, 8)) }
            }
            if header[0..<4] == fmtTag[...] {
                let body = [UInt8](try read(offset + 8, 16))
                if body.count == 16 {
                    format = (
                        UInt16(body[0]) | UInt16(body[1]) << 8,
                        Int(UInt16(body[2]) | UInt16(body[3]) << 8),
                        Int(littleEndian32(body, 4)),
                        Int(UInt16(body[14]) | UInt16(body[15]) << 8),
                        Int(UInt16(body[12]) | UInt16(body[13]) << 8)
                    )
                }
            }
            offset += 8 + UInt64(size) + UInt64(size & 1)
        }
        guard let format, format.channels > 0, format.align > 0 else { throw WAVRepairError.missingFormat }
        guard let data else { throw WAVRepairError.missingData }
        // RF64 keeps its sizes in `ds64`: without one there is nowhere to write them.
        if isRF64 && ds64 == nil { throw WAVRepairError.missingDS64 }
        let riffSize = isRF64 && riffSize32 == 0xFFFF_FFFF ? ds64?.riff ?? 0 : UInt64(riffSize32)

        var layout = WAVLayout(
            formatTag: format.tag, channels: format.channels, sampleRate: format.rate,
            bitsPerSample: format.bits, blockAlign: format.align, dataOffset: data.offset, dataSize: data.declared,
            declaredDataSize: data.declared, isRF64: isRF64
        )
        let available = fileSize - min(fileSize, data.offset)
        let declared = data.declared

        // Healthy: the declared data fits, and what follows it (if anything) is a chain of chunks.
        let dataFits = declared <= available && !(declared == 0 && available > 0)
        if dataFits, try chunksTile(from: data.offset + declared + (declared & 1), to: fileSize, read: read) {
            let riffEnd = riffSize + 8
            let placeholder = riffSize == 0 || (!isRF64 && riffSize == 0xFFFF_FFFF)
            if !placeholder, riffEnd <= fileSize, riffEnd >= data.offset + declared {
                return .healthy(layout)
            }
            // Only the RIFF size is wrong: it covers the whole file. An RF64 file's 32-bit size
            // says 0xFFFFFFFF (see `ds64`), else it is the one read, and the repair would not hold.
            let patches = if let ds64 {
                [WAVPatch(offset: 4, bytes: littleEndianBytes(0xFFFF_FFFF)), WAVPatch(offset: ds64.body, bytes: littleEndianBytes64(fileSize - 8))]
            } else {
                [WAVPatch(offset: 4, bytes: littleEndianBytes(UInt32(clamping: fileSize - 8)))]
            }
            return .repair(layout, patches: patches, fileSize: fileSize)
        }

        // The bytes after the data header are audio: keep whole frames. RIFF sizes are 32-bit, so
        // a RIFF file keeps at most 4 GiB; RF64 keeps them all.
        let align = UInt64(format.align)
        let dataSize = min(available, isRF64 ? .max : UInt64(UInt32.max - 64)) / align * align
        layout.dataSize = dataSize
        let pad = dataSize & 1
        let newFileSize = data.offset + dataSize + pad
        let patches: [WAVPatch]
        if let ds64 {
            patches = [
                WAVPatch(offset: 4, bytes: littleEndianBytes(0xFFFF_FFFF)),
                WAVPatch(offset: ds64.body, bytes: littleEndianBytes64(newFileSize - 8)),
                WAVPatch(offset: ds64.body + 8, bytes: littleEndianBytes64(dataSize)),
                WAVPatch(offset: ds64.body + 16, bytes: littleEndianBytes64(dataSize / align)),
                WAVPatch(offset: data.offset - 4, bytes: littleEndianBytes(0xFFFF_FFFF)),
            ]
        } else {
            patches = [
                WAVPatch(offset: 4, bytes: littleEndianBytes(UInt32(clamping: newFileSize - 8))),
                WAVPatch(offset: data.offset - 4, bytes: littleEndianBytes(UInt32(dataSize))),
            ]
        }
        return .repair(layout, patches: patches, fileSize: newFileSize)
    }

    /// Repairs a whole file held in memory.
    ///
    /// - Returns: The repaired bytes (identical to `bytes` when healthy) and their layout.
    /// - Throws: `WAVRepairError`.
    public static func repair(_ bytes: Data) throws -> (bytes: Data, layout: WAVLayout) {
        let bytes = Data(bytes)  // zero-based indices
        let plan = try plan(fileSize: UInt64(bytes.count)) { offset, count in
            let start = Int(min(offset, UInt64(bytes.count)))
            return bytes.subdata(in: start..<min(bytes.count, start + count))
        }
        switch plan {
        case .healthy(let layout):
            return (bytes, layout)
        case .repair(let layout, let patches, let fileSize):
            var output = bytes
            if output.count > Int(fileSize) {
                output.removeSubrange(Int(fileSize)...)
            } else if output.count < Int(fileSize) {
                output.append(Data(count: Int(fileSize) - output.count))
            }
            for patch in patches {
                output.replaceSubrange(Int(patch.offset)..<Int(patch.offset) + patch.bytes.count, with: patch.bytes)
            }
            return (output, layout)
        }
    }

    /// True when the bytes from `start` to `end` are whole chunks (four ASCII letters, a size that
    /// fits, a pad byte after odd sizes; a missing final pad byte is tolerated).
    private static func chunksTile(from start: UInt64, to end: UInt64, read: (UInt64, Int) throws -> Data) throws -> Bool {
        var offset = start
        var chunks = 0
        while offset < end {
            guard offset + 8 <= end, chunks < 1024 else { return false }
            let header = [UInt8](try read(offset, 8))
            guard header.count == 8, header[0..<4].allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            let size = UInt64(littleEndian32(header, 4))
            let next = offset + 8 + size
            guard next <= end else { return false }
            offset = next + (size & 1)
            chunks += 1
        }
        return offset == end || offset == end + 1
    }

    private static let riffTag: [UInt8] = Array("RIFF".utf8)
    private static let rf64Tag: [UInt8] = Array("RF64".utf8)
    private static let bw64Tag: [UInt8] = Array("BW64".utf8)
    private static let ds64Tag: [UInt8] = Array("ds64".utf8)
    private static let waveTag: [UInt8] = Array("WAVE".utf8)
    private static let fmtTag: [UInt8] = Array("fmt ".utf8)
    private static let dataTag: [UInt8] = Array("data".utf8)

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func littleEndian64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(littleEndian32(bytes, at)) | UInt64(littleEndian32(bytes, at + 4)) << 32
    }

    static func littleEndianBytes64(_ value: UInt64) -> [UInt8] {
        littleEndianBytes(UInt32(value & 0xFFFF_FFFF)) + littleEndianBytes(UInt32(value >> 32))
    }

    static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
