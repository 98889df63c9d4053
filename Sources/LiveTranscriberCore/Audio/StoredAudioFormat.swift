import Foundation

/// The format a saved recording's audio file is stored in (`AudioDescription.format`): its file
/// name extension, as `metadata.json` names it ("wav", "flac", "opus", "m4a").
///
/// A library can hold formats this build does not know (written by a newer version, or on
/// another platform), so the value keeps any name; `known` says whether it is one of ours. The
/// one parse rule: surrounding white space is dropped and letters are lowercased ("WAV " is "wav").
/// Encoded in JSON as a plain string.
public struct StoredAudioFormat: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The file name extension, without the dot, lowercased.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public init(_ format: RecordingAudioFormat) {
        self.init(rawValue: format.rawValue)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The format as one this build records or reads; nil for a name it does not know.
    public var known: RecordingAudioFormat? { RecordingAudioFormat(rawValue: rawValue) }

    /// The audio file's name extension, without the dot.
    public var fileExtension: String { rawValue }

    public var description: String { rawValue }
}
