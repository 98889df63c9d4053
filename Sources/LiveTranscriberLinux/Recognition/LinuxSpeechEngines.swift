import Foundation
import LiveTranscriberCore

/// The one factory of local speech engines on Linux: every command that recognizes speech
/// (`record`, `import`, `retranscribe --engine local`) gets its recognizer here.
public enum LinuxSpeechEngines {
    /// The engine used when none is named.
    public static func defaultKind() -> SpeechEngineKind {
        .pocketsphinx
    }

    /// A recognizer of `kind` for `language` (BCP 47).
    /// - Parameter model: a model file the user brought (`--model PATH`); nil for the installed one.
    /// - Throws: `RecognizerError` when the engine's model is missing or does not know the language.
    public static func make(_ kind: SpeechEngineKind, language: String, model: String? = nil) throws -> any SpeechRecognizer {
        switch kind {
        case .pocketsphinx:
            guard model == nil else { throw RecognizerError.unsupported("pocketsphinx takes no --model; it uses Debian's pocketsphinx-en-us") }
            let installed = PocketSphinxModel.englishUS
            guard LanguageTag.sameLanguage(language, installed.language) else {
                throw RecognizerError.unsupported("pocketsphinx knows only US English (en-US), not '\(language)'")
            }
            return try PocketSphinxRecognizer(model: installed)
        case .whisper:
            throw RecognizerError.unsupported("the whisper engine is not installed on this machine; use --engine pocketsphinx")
        }
    }
}

/// BCP 47 language tags, compared the way engines need.
enum LanguageTag {
    /// True when both tags name the same language ("en-US" and "en" and "EN-gb" do).
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        primary(a) == primary(b)
    }

    static func primary(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }
}
