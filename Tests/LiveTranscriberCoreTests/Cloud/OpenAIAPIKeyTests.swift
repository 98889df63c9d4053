import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// A key shaped like OpenAI's, for tests only.
private enum KeyFixture {
    static let key = "sk-test-SECRET1234567890abcdef"
    static func apiKey() throws -> OpenAIAPIKey { try OpenAIAPIKey(key, source: "test") }
}

@Suite("OpenAI API key")
struct OpenAIAPIKeyTests {
    @Test("the environment variable comes first and the key never shows in descriptions")
    func environment() throws {
        let key = try OpenAIAPIKey.resolve(environment: ["OPENAI_API_KEY": " \(KeyFixture.key)\n"],
                                           defaultKeyFile: URL(fileURLWithPath: "/nonexistent"))
        #expect(key.authorizationHeader == "Bearer \(KeyFixture.key)")
        #expect("\(key)" == "OpenAIAPIKey([redacted])")
        #expect(String(reflecting: key) == "OpenAIAPIKey([redacted])")
    }

    @Test("a key file with mode 0600 is read", arguments: [0o600, 0o400])
    func keyFile(mode: Int) throws {
        let directory = try TestFolders.make("lt-key")
        let file = directory.appendingPathComponent("openai-api-key")
        try (KeyFixture.key + "\n").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        let key = try OpenAIAPIKey.resolve(environment: [:], defaultKeyFile: file)
        #expect(key.authorizationHeader == "Bearer \(KeyFixture.key)")
    }

    @Test("a key file readable by others is refused with a sentence that says how to fix it", arguments: [0o644, 0o640, 0o604])
    func tooOpen(mode: Int) throws {
        let directory = try TestFolders.make("lt-key")
        let file = directory.appendingPathComponent("key")
        try KeyFixture.key.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        let error = #expect(throws: OpenAIError.self) {
            try OpenAIAPIKey.resolve(environment: ["OPENAI_API_KEY_FILE": file.path], defaultKeyFile: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(error == .keyFileTooOpen(path: file.path, mode: mode))
        let text = error?.description ?? ""
        #expect(text == "the OpenAI key file \(file.path) has mode \(String(format: "%04o", mode)); it must be readable by you only: run 'chmod 600 \(file.path)'.")
        #expect(!text.contains(KeyFixture.key))
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
        #expect(try KeyFixture.apiKey().redact(input) == expected)
    }

    @Test("a refused key's message names where the user keeps it", arguments: [
        (OpenAIKeyPlace.environmentOrFile, "OpenAI refused the API key (401): Bad key. Check OPENAI_API_KEY or the key file."),
        (.appSettings, "OpenAI refused the API key (401): Bad key. Check the OpenAI API key in Settings."),
    ])
    func refusedAdvice(place: OpenAIKeyPlace, expected: String) {
        #expect(OpenAIError.unauthorized(status: 401, message: "Bad key.", keyPlace: place).description == expected)
    }

    @Test("a key from Settings keeps its place; one from the environment is the command line's")
    func places() throws {
        #expect(try OpenAIAPIKey(KeyFixture.key, source: "Settings", place: .appSettings).place == .appSettings)
        #expect(try KeyFixture.apiKey().place == .environmentOrFile)
        #expect(OpenAIError.missingKeyInSettings.description == "no OpenAI API key: add yours in Settings, under OpenAI.")
    }
}
