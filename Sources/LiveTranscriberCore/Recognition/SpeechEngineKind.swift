import Foundation

/// The local speech recognition engines, by the name `--engine` takes.
public enum SpeechEngineKind: String, Sendable, CaseIterable {
    /// whisper.cpp with a Whisper model and Silero voice activity detection: accurate, needs its model installed.
    case whisper
    /// CMU pocketsphinx with Debian's US English model: light and streaming, much less accurate.
    case pocketsphinx

    /// The engine used when none is named: whisper when its model is installed, pocketsphinx otherwise.
    public static func defaultKind(whisperModelInstalled: Bool) -> SpeechEngineKind {
        whisperModelInstalled ? .whisper : .pocketsphinx
    }

    /// Parses an `--engine` value. Throws `SpeechEngineKind.UnknownName` for anything else.
    public init(name: String) throws {
        guard let kind = SpeechEngineKind(rawValue: name.lowercased()) else { throw UnknownName(name: name) }
        self = kind
    }

    /// An engine name that is not one of `SpeechEngineKind.allCases`.
    public struct UnknownName: Error, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "unknown engine '\(name)'; choose one of: \(SpeechEngineKind.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
