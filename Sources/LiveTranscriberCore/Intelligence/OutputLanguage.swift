import Foundation

/// The language a summary must be written in, inferred from the transcript's script.
public struct OutputLanguage: Sendable, Equatable, Hashable, Codable {
    /// BCP 47 tag: the recording's tag when it fits the script ("pt-BR"), else a primary code ("zh").
    public var code: String
    /// English name, as prompts say it ("Chinese").
    public var name: String
    /// The script the language is written in.
    public var script: WritingScript

    public init(code: String, name: String, script: WritingScript) {
        self.code = code
        self.name = name
        self.script = script
    }

    public static let english = OutputLanguage(code: "en", name: "English", script: .latin)

    /// The language of a BCP 47 tag ("fr-CA" -> French), or nil when the primary code is unknown.
    public init?(tag: String) {
        let primary = LanguageTag.primarySubtag(tag)
        guard let known = Self.known[primary] else { return nil }
        self.init(code: tag.isEmpty ? primary : tag, name: known.name, script: known.script)
    }

    /// The expected output language of `text`.
    ///
    /// The script decides: Han -> Chinese, Kana (with or without Han) -> Japanese, Hangul -> Korean,
    /// Thai -> Thai. For scripts shared by several languages (Latin, Cyrillic, Arabic, Devanagari...)
    /// the hint wins when it is written in that script; otherwise the script's most common language
    /// (English, Russian, Arabic, Hindi, Greek, Hebrew). Text with no letters falls back to the hint,
    /// then English.
    ///
    /// - Parameters:
    ///   - text: The transcript or notes.
    ///   - hint: The recording's BCP 47 language, such as "en-US" or "zh-CN".
    public static func infer(from text: String, hint: String) -> OutputLanguage {
        let hinted = OutputLanguage(tag: hint)
        guard let script = WritingScript.dominant(in: text) else { return hinted ?? .english }
        if let hinted, hinted.script == script { return hinted }
        return defaults[script] ?? .english
    }

    /// True when `answer` looks written in this language: its dominant script is this language's
    /// script (Japanese needs Kana, Chinese needs Han without Kana). Latin-script languages share a
    /// script, so among English, French, German, Spanish, Italian, Portuguese and Dutch the answer's
    /// function words decide: it is refused only when another of these languages clearly dominates
    /// (at least 3 function words, more than twice the expected language's count). An answer with no
    /// letters matches.
    public func accepts(_ answer: String) -> Bool {
        guard let script = WritingScript.dominant(in: answer) else { return true }
        guard script == self.script else { return false }
        guard script == .latin, let expected = Self.latinFunctionWords[primaryCode] else { return true }
        let words = answer.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        func hits(_ set: Set<String>) -> Int { words.reduce(0) { $0 + (set.contains($1) ? 1 : 0) } }
        let own = hits(expected)
        let strongest = Self.latinFunctionWords.filter { $0.key != primaryCode }.map { hits($0.value) }.max() ?? 0
        return !(strongest >= 3 && strongest > 2 * own)
    }

    /// The primary language subtag, lower-cased ("pt" for "pt-BR").
    public var primaryCode: String {
        LanguageTag.primarySubtag(code)
    }

    /// Frequent function words that mostly belong to one language each.
    static let latinFunctionWords: [String: Set<String>] = [
        "en": ["the", "and", "of", "to", "is", "that", "with", "for", "was", "are", "on", "it", "this", "be", "they"],
        "fr": ["le", "les", "et", "des", "du", "est", "une", "que", "pour", "dans", "sur", "avec", "pas", "au", "aux"],
        "de": ["der", "die", "das", "und", "ist", "nicht", "mit", "den", "ein", "eine", "zu", "auf", "für", "von", "sich"],
        "es": ["el", "los", "las", "y", "que", "es", "una", "por", "con", "para", "del", "se", "su", "al", "como"],
        "it": ["il", "di", "che", "e", "una", "per", "con", "non", "sono", "della", "nel", "gli", "alla", "anche", "questo"],
        "pt": ["os", "que", "um", "uma", "para", "com", "não", "do", "da", "em", "no", "na", "dos", "das", "foi"],
        "nl": ["het", "een", "en", "van", "dat", "niet", "met", "op", "voor", "zijn", "te", "ook", "naar", "wordt", "bij"],
    ]

    private static let defaults: [WritingScript: OutputLanguage] = [
        .latin: .english,
        .han: OutputLanguage(code: "zh", name: "Chinese", script: .han),
        .kana: OutputLanguage(code: "ja", name: "Japanese", script: .kana),
        .hangul: OutputLanguage(code: "ko", name: "Korean", script: .hangul),
        .cyrillic: OutputLanguage(code: "ru", name: "Russian", script: .cyrillic),
        .arabic: OutputLanguage(code: "ar", name: "Arabic", script: .arabic),
        .hebrew: OutputLanguage(code: "he", name: "Hebrew", script: .hebrew),
        .greek: OutputLanguage(code: "el", name: "Greek", script: .greek),
        .devanagari: OutputLanguage(code: "hi", name: "Hindi", script: .devanagari),
        .thai: OutputLanguage(code: "th", name: "Thai", script: .thai),
    ]

    private static let known: [String: (name: String, script: WritingScript)] = [
        "en": ("English", .latin), "fr": ("French", .latin), "de": ("German", .latin),
        "es": ("Spanish", .latin), "it": ("Italian", .latin), "pt": ("Portuguese", .latin),
        "nl": ("Dutch", .latin), "sv": ("Swedish", .latin), "da": ("Danish", .latin),
        "nb": ("Norwegian", .latin), "no": ("Norwegian", .latin), "fi": ("Finnish", .latin),
        "pl": ("Polish", .latin), "cs": ("Czech", .latin), "sk": ("Slovak", .latin),
        "ro": ("Romanian", .latin), "hu": ("Hungarian", .latin), "tr": ("Turkish", .latin),
        "vi": ("Vietnamese", .latin), "id": ("Indonesian", .latin), "ms": ("Malay", .latin),
        "ca": ("Catalan", .latin), "hr": ("Croatian", .latin), "sl": ("Slovenian", .latin),
        "ru": ("Russian", .cyrillic), "uk": ("Ukrainian", .cyrillic), "bg": ("Bulgarian", .cyrillic),
        "sr": ("Serbian", .cyrillic), "be": ("Belarusian", .cyrillic), "mk": ("Macedonian", .cyrillic),
        "kk": ("Kazakh", .cyrillic),
        "ar": ("Arabic", .arabic), "fa": ("Persian", .arabic), "ur": ("Urdu", .arabic),
        "he": ("Hebrew", .hebrew), "el": ("Greek", .greek),
        "hi": ("Hindi", .devanagari), "mr": ("Marathi", .devanagari), "ne": ("Nepali", .devanagari),
        "th": ("Thai", .thai),
        "zh": ("Chinese", .han), "yue": ("Cantonese", .han), "ja": ("Japanese", .kana), "ko": ("Korean", .hangul),
    ]
}
