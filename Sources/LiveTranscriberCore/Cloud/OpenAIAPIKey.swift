import Foundation

/// An OpenAI API key. Its description never shows the key, so it cannot leak through printing,
/// string interpolation or logs; only `authorizationHeader` reveals it, for the request.
public struct OpenAIAPIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let secret: String
    /// Where the user keeps this key, which the advice of a refused key names.
    public let place: OpenAIKeyPlace

    /// A key from `value`, trimmed.
    ///
    /// - Parameters:
    ///   - value: The key as stored.
    ///   - source: Where it was read, for the error message ("OPENAI_API_KEY", a file path, "Settings").
    ///   - place: Where the user manages keys; the command line's environment and key file by default.
    /// - Throws: `OpenAIError.malformedKey` for an empty value or one with spaces or control characters inside.
    public init(_ value: String, source: String, place: OpenAIKeyPlace = .environmentOrFile) throws {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty,
              !trimmed.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) })
        else { throw OpenAIError.malformedKey(source: source) }
        secret = trimmed
        self.place = place
    }

    /// `Bearer <key>`, for the Authorization header.
    public var authorizationHeader: String { "Bearer \(secret)" }

    /// Text with this key removed.
    public func redact(_ text: String) -> String { SecretRedactor.redact(text, key: secret) }

    public var description: String { "OpenAIAPIKey([redacted])" }
    public var debugDescription: String { description }

    /// The key to use: `OPENAI_API_KEY`, else the file named by `OPENAI_API_KEY_FILE`, else
    /// `defaultKeyFile` when it exists. A key file must not be readable by group or others
    /// (mode 0600 or 0400), else it is refused.
    ///
    /// - Throws: `OpenAIError.missingKey`, `.keyFileTooOpen`, `.keyFileUnreadable`, `.malformedKey`.
    public static func resolve(environment: [String: String], defaultKeyFile: URL) throws -> OpenAIAPIKey {
        if let value = environment["OPENAI_API_KEY"], !value.isEmpty {
            return try OpenAIAPIKey(value, source: "OPENAI_API_KEY")
        }
        if let path = environment["OPENAI_API_KEY_FILE"], !path.isEmpty {
            return try read(URL(fileURLWithPath: path))
        }
        guard FileManager.default.fileExists(atPath: defaultKeyFile.path) else {
            throw OpenAIError.missingKey(defaultKeyFile: defaultKeyFile.path)
        }
        return try read(defaultKeyFile)
    }

    /// The key in `file`, after checking that only its owner can read it.
    public static func read(_ file: URL) throws -> OpenAIAPIKey {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        } catch {
            throw OpenAIError.keyFileUnreadable(path: file.path, reason: "it does not exist or cannot be opened")
        }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? (attributes[.posixPermissions] as? Int) ?? 0o777
        guard mode & 0o077 == 0 else { throw OpenAIError.keyFileTooOpen(path: file.path, mode: mode & 0o7777) }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw OpenAIError.keyFileUnreadable(path: file.path, reason: "permission denied")
        }
        return try OpenAIAPIKey(String(decoding: data, as: UTF8.self), source: file.path)
    }
}

/// Where the user keeps the OpenAI key: what a refused or missing key's message tells them to check.
public enum OpenAIKeyPlace: Sendable, Equatable {
    /// The command line: `OPENAI_API_KEY`, `OPENAI_API_KEY_FILE` or the default key file.
    case environmentOrFile
    /// The iOS app's Settings (stored in the Keychain).
    case appSettings

    /// The sentence that ends a "key refused" message.
    public var advice: String {
        switch self {
        case .environmentOrFile: return "Check OPENAI_API_KEY or the key file."
        case .appSettings: return "Check the OpenAI API key in Settings."
        }
    }
}
