import Foundation
@testable import LiveTranscriberLinux
import Testing

@Suite("OpenAI API key")
struct OpenAIAPIKeyTests {
    @Test("the environment variable comes first and the key never shows in descriptions")
    func environment() throws {
        let key = try OpenAIAPIKey.resolve(environment: ["OPENAI_API_KEY": " \(CloudFixtures.key)\n"],
                                           defaultKeyFile: URL(fileURLWithPath: "/nonexistent"))
        #expect(key.authorizationHeader == "Bearer \(CloudFixtures.key)")
        #expect("\(key)" == "OpenAIAPIKey([redacted])")
        #expect(String(reflecting: key) == "OpenAIAPIKey([redacted])")
    }

    @Test("a key file with mode 0600 is read", arguments: [0o600, 0o400])
    func keyFile(mode: Int) throws {
        let directory = try CloudFixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("openai-api-key")
        try (CloudFixtures.key + "\n").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        let key = try OpenAIAPIKey.resolve(environment: [:], defaultKeyFile: file)
        #expect(key.authorizationHeader == "Bearer \(CloudFixtures.key)")
    }

    @Test("a key file readable by others is refused with a sentence that says how to fix it", arguments: [0o644, 0o640, 0o604])
    func tooOpen(mode: Int) throws {
        let directory = try CloudFixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("key")
        try CloudFixtures.key.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        let error = #expect(throws: OpenAIError.self) {
            try OpenAIAPIKey.resolve(environment: ["OPENAI_API_KEY_FILE": file.path], defaultKeyFile: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(error == .keyFileTooOpen(path: file.path, mode: mode))
        let text = error?.description ?? ""
        #expect(text == "the OpenAI key file \(file.path) has mode \(String(format: "%04o", mode)); it must be readable by you only: run 'chmod 600 \(file.path)'.")
        #expect(!text.contains(CloudFixtures.key))
    }

    @Test("no key anywhere names both places to put one")
    func missing() {
        #expect(throws: OpenAIError.missingKey(defaultKeyFile: "/nonexistent/key")) {
            try OpenAIAPIKey.resolve(environment: ["OPENAI_API_KEY": ""], defaultKeyFile: URL(fileURLWithPath: "/nonexistent/key"))
        }
        #expect(OpenAIError.missingKey(defaultKeyFile: "/k").description
                == "no OpenAI API key: set OPENAI_API_KEY, or write the key to /k (mode 0600).")
    }

    @Test("redaction removes the exact key and anything shaped like one", arguments: [
        ("Incorrect API key provided: sk-test-SECRET1234567890abcdef.", "Incorrect API key provided: [redacted]."),
        ("key sk-abc***wxyz is wrong", "key [redacted] is wrong"),
        ("nothing secret", "nothing secret"),
    ])
    func redact(input: String, expected: String) throws {
        #expect(try CloudFixtures.apiKey().redact(input) == expected)
    }
}
