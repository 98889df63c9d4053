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
        var audio: [UInt8] = []
        audio.reserveCapacity(frames * channels * 2)
        for frame in 0..<frames {
            let sample = WAVFixture.le16(UInt16(bitPattern: Int16(truncatingIfNeeded: frame % 2000 - 1000)))
            for _ in 0..<channels { audio += sample }
        }
        return WAVFixture.make(sampleRate: sampleRate, channels: channels, audio: audio)
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
