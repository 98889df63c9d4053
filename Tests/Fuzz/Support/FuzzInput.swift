import Foundation

/// Reads typed values from a fuzzer's bytes, front to back; past the end every read gives zero,
/// so any input is a valid (if short) description.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ start: UnsafeRawPointer, _ count: Int) {
        bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// Seconds: mostly small values on a 10 ms grid, sometimes any 64-bit pattern (NaN, infinities,
    /// negative zero, 1e308) so the odd values are reached too.
    mutating func seconds() -> Double {
        let kind = byte()
        if kind < 0xF0 { return Double(uint16()) / 100 }
        var raw: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { raw |= UInt64(byte()) << UInt64(shift) }
        return Double(bitPattern: raw)
    }

    /// Text: a length byte, then that many bytes decoded as UTF-8 (invalid sequences replaced).
    mutating func text() -> String {
        let count = Int(byte())
        var piece: [UInt8] = []
        for _ in 0..<count where !isAtEnd { piece.append(byte()) }
        return String(decoding: piece, as: UTF8.self)
    }

    /// The bytes not read yet.
    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}

/// Stops the fuzzer with `message` when `condition` is false: a broken promise is a finding.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data(("fuzz check failed: " + message() + "\n").utf8))
        abort()
    }
}
