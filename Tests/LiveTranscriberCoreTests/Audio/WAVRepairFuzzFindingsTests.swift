import Foundation
import LiveTranscriberCore
import Testing

/// Inputs the libFuzzer target `wav_header` (Tests/Fuzz, `make fuzz`) found, with their right behaviour.
@Suite("WAVHeaderRepair: what fuzzing found")
struct WAVRepairFuzzFindingsTests {
    /// The fuzzer's input: a finished RF64 file of 1,104 bytes (ds64 states 1,096 RIFF bytes and
    /// 1,024 data bytes) whose 32-bit RIFF size is 0x78000000 instead of 0xFFFFFFFF.
    // Computed, not stored: LeakSanitizer cannot see a Data held in a global (its storage pointer
    // shares bits with the enum tag) and would report it as a leak.
    static var rf64WithStrayRIFFSize: Data {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) } }
        var bytes = Array("RF64".utf8) + le32(0x7800_0000) + Array("WAVE".utf8)
        bytes += Array("ds64".utf8) + le32(28) + le64(1_096) + le64(1_024) + le64(512) + le32(0)
        bytes += Array("fmt ".utf8) + le32(16) + [1, 0, 1, 0] + le32(16_000) + le32(32_000) + [2, 0, 16, 0]
        bytes += Array("data".utf8) + le32(0xFFFF_FFFF)
        bytes += (0..<1_024).map { UInt8($0 & 0xFF) }
        return Data(bytes)
    }

    @Test("an RF64 file whose 32-bit RIFF size is not 0xFFFFFFFF is repaired once: the repair sets it to 0xFFFFFFFF and the file is then healthy")
    func rf64StrayRIFFSizeRepairHolds() throws {
        let input = Self.rf64WithStrayRIFFSize
        #expect(input.count == 1_104)
        let (repaired, layout) = try WAVHeaderRepair.repair(input)
        #expect(layout.isRF64)
        #expect(layout.dataOffset == 80)
        #expect(layout.dataSize == 1_024)
        #expect([UInt8](repaired[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(repaired[8...] == input[8...])
        let again = try WAVHeaderRepair.plan(fileSize: UInt64(repaired.count)) { offset, count in
            repaired.subdata(in: Int(offset)..<min(repaired.count, Int(offset) + count))
        }
        #expect(again == .healthy(layout))
    }

    /// The fuzzer's input (407 bytes): an RF64 file whose `ds64` chunk states a size of 0, so the
    /// 24 bytes of sizes a repair writes there would land on the chunks after it.
    static var rf64WithEmptyDS64: Data { Data(base64Encoded: [
        "UkY2NP////9XQVZFZHM2NAAAAAAAAAAFHAAAAEgEAAAAAAAAAAQAAAAAQAAAAgAAAAAAAFdBVkVmbXQgEAAAAAEAAQBSSUZG",
        "lgAAAFdBVkVmbXQgEAAAAAEAAQCAPgAAAIP///0AD/xkYXRhZQAAAAABAgj///9zCg8NDBEOEBILExQVFhcYGRobHB0eHyAA",
        "ACQlJicoKSorLS4vYDEyMzQ1Njc5MFVWV1heX2AAAAAAAARJU1QEAAMEBQYHCAkKAgwNDg8QERITAAoCDA0OD///V0FWRWRz",
        "NjQcAAAASAQAAAAAAAAABAAAAABAAAACAAAAAAAAU0FWRWZtdCAQAAAAAQABAFJJRkaWAAAAV0FWRWZtdCAQAAAAAQABAIA+",
        "AAAcHR4fIAAAJCUmJygpKistLi9gMTIzNDU2NzkwVVZXWF5fYAAAAAAABElTVAQAAwQFBgcICQoCDA0ODxAREhMACgIMDQ4P",
        "EBESEwAAAFoUI0ZPrKysrKysrKysrBAREhMAAABaFCNGT6ysrKysrKysrKwkeyU=",
    ].joined())! }

    @Test("an RF64 file whose ds64 chunk is shorter than its 24 bytes of sizes is refused (missingDS64), never repaired over the chunks after it")
    func shortDS64IsRefused() {
        #expect(Self.rf64WithEmptyDS64.count == 407)
        #expect(throws: WAVRepairError.missingDS64) { try WAVHeaderRepair.repair(Self.rf64WithEmptyDS64) }
        // The same in its smallest form: ds64 of size 0, then `fmt ` and `data` of a crashed writer.
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        var bytes = Array("RF64".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8) + Array("ds64".utf8) + le32(0)
        bytes += Array("fmt ".utf8) + le32(16) + [1, 0, 1, 0] + le32(16_000) + le32(32_000) + [2, 0, 16, 0]
        bytes += Array("data".utf8) + le32(0xFFFF_FFFF) + [UInt8](repeating: 7, count: 64)
        #expect(throws: WAVRepairError.missingDS64) { try WAVHeaderRepair.repair(Data(bytes)) }
    }
}
