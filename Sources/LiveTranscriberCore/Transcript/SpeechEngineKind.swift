import Foundation

/// The local speech engines a front end can choose with `--engine`.
public enum SpeechEngineKind: String, Sendable, Equatable, CaseIterable {
    /// whisper.cpp: accurate, utterances cut by voice activity detection (the default when its
    /// model is installed).
    case whisper
    /// pocketsphinx: streaming, US English only; light in memory and live, but about 3 times
    /// whisper's CPU on a file (README, "Speech engines").
    case pocketsphinx

    /// One line for help text.
    public var summary: String {
        switch self {
        case .whisper: "whisper.cpp, accurate, many languages (default when its model is installed)"
        case .pocketsphinx: "pocketsphinx, streaming, US English only, less memory but about 3x whisper's CPU on files"
        }
    }

    /// "whisper or pocketsphinx", for help and error text.
    public static var choices: String {
        allCases.map(\.rawValue).joined(separator: " or ")
    }

    /// The engine used when none is named: whisper when its model is installed, pocketsphinx otherwise.
    public static func defaultKind(whisperModelInstalled: Bool) -> SpeechEngineKind {
        whisperModelInstalled ? .whisper : .pocketsphinx
    }

    /// The engine a user means by `name`. Throws `SpeechEngineChoiceError.unknown`.
    public static func named(_ name: String) throws -> SpeechEngineKind {
        guard let kind = SpeechEngineKind(rawValue: name.lowercased()) else { throw SpeechEngineChoiceError.unknown(name) }
        return kind
    }
}

/// Why an engine name was refused.
public enum SpeechEngineChoiceError: Error, Equatable, CustomStringConvertible {
    case unknown(String)

    public var description: String {
        switch self {
        case .unknown(let name): "unknown speech engine '\(name)'; use \(SpeechEngineKind.choices)"
        }
    }
}
