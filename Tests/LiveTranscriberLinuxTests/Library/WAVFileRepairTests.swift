import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

@Suite("WAVFileRepair")
struct WAVFileRepairTests {
    @Test("a healthy file with a LIST chunk after data is not written to: same bytes, same modification time")
    func healthyUntouched() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("healthy.wav")
        let bytes = WAVFixture.make(audio: WAVFixture.pcm(bytes: 6_400), chunksAfterData: [("LIST", Array("INFOISFT\u{3}\u{0}\u{0}\u{0}lt\u{0}\u{0}".utf8))])
        try bytes.write(to: file)
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        let plan = try WAVFileRepair.repair(file)
        #expect(plan == .healthy(plan.layout))
        #expect(try Data(contentsOf: file) == bytes)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(modified == old)
    }

    @Test("a crashed file is patched in place: 0xFFFFFFFF sizes become the bytes present, a torn frame is cut")
    func repairedInPlace() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("crashed.wav")
        let audio = WAVFixture.pcm(bytes: 4 * 4_800)
        try (WAVFixture.make(sampleRate: 48_000, channels: 2, audio: audio, riffSize: 0xFFFF_FFFF, dataSize: 0xFFFF_FFFF) + Data([7, 7])).write(to: file)
        let plan = try WAVFileRepair.repair(file)
        #expect(plan.layout.durationSeconds == 0.1)
        #expect(try Data(contentsOf: file) == WAVFixture.make(sampleRate: 48_000, channels: 2, audio: audio))
    }

    @Test("a file that is not WAV is an error and stays unchanged")
    func notWAV() throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = home.url.appendingPathComponent("x.wav")
        try Data("ID3 not a wav file".utf8).write(to: file)
        #expect(throws: WAVRepairError.notWAV) { try WAVFileRepair.repair(file) }
        #expect(try Data(contentsOf: file) == Data("ID3 not a wav file".utf8))
    }
}
