import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Synchronization

/// Records the waits an `HTTPClient` asks for, without waiting.
final class SleepRecorder: Sendable {
    private let waits = Mutex<[Double]>([])
    var recorded: [Double] { waits.withLock { $0 } }
    var sleep: HTTPClient.Sleep { { seconds in self.waits.withLock { $0.append(seconds) } } }
}

enum CloudFixtures {
    static let key = "sk-test-SECRET1234567890abcdef"

    static func apiKey() throws -> OpenAIAPIKey { try OpenAIAPIKey(key, source: "test") }

    /// A 16-bit PCM WAV file's bytes: `frames` frames of a ramp, `channels` channels.
    static func wav(frames: Int, sampleRate: Int, channels: Int) -> Data {
        var data = Data()
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        let bytes = frames * channels * 2
        data.append(Data("RIFF".utf8)); u32(36 + bytes); data.append(Data("WAVE".utf8))
        data.append(Data("fmt ".utf8)); u32(16); u16(1); u16(channels); u32(sampleRate)
        u32(sampleRate * channels * 2); u16(channels * 2); u16(16)
        data.append(Data("data".utf8)); u32(bytes)
        for frame in 0..<frames {
            for _ in 0..<channels { u16(Int(UInt16(bitPattern: Int16(truncatingIfNeeded: frame % 2000 - 1000)))) }
        }
        return data
    }

    static func temporaryDirectory() throws -> URL {
        let url = try TestFolders.make("lt-cloud")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The parts of a multipart body: name -> (filename, content type, value text).
    static func parts(_ request: LoopbackHTTPServer.Request) -> [String: (filename: String?, contentType: String?, value: Data)] {
        guard let type = request.headers["content-type"], let range = type.range(of: "boundary=") else { return [:] }
        let boundary = Data(("--" + type[range.upperBound...]).utf8)
        var result: [String: (String?, String?, Data)] = [:]
        var rest = request.body[...]
        while let start = rest.range(of: boundary) {
            rest = rest[start.upperBound...]
            guard let headEnd = rest.range(of: Data("\r\n\r\n".utf8)) else { break }
            let head = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self)
            let after = rest[headEnd.upperBound...]
            guard let next = after.range(of: Data("\r\n".utf8) + boundary) else { break }
            let value = Data(after[..<next.lowerBound])
            func attribute(_ name: String) -> String? {
                guard let r = head.range(of: "\(name)=\"") else { return nil }
                return String(head[r.upperBound...].prefix(while: { $0 != "\"" }))
            }
            let contentType = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
                .map { $0.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces) }
            if let name = attribute("name") { result[name] = (attribute("filename"), contentType, value) }
            rest = after[next.lowerBound...]
        }
        return result
    }
}
