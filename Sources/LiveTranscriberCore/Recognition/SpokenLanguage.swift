import Foundation

/// What the user asked for with `--language`: a language, or `auto` to have it detected.
public enum LanguageChoice: Sendable, Equatable {
    /// Detect the language on the first utterance and keep it for the rest of the recording.
    case automatic
    /// The speech is in this language (a BCP 47 tag such as "en-US" or "de").
    case named(String)

    /// The word that asks for detection: `--language auto`.
    public static let automaticName = "auto"

    /// The choice when none is given, for every way a recording is made (`record`, `import`,
    /// `retranscribe`, the web page's Record button and uploads): detect the language. A front end
    /// that fell back to "en-US" would transcribe German speech as English words.
    public static let `default` = LanguageChoice.automatic

    /// `auto` (any case) is `.automatic`; anything else names a language.
    public init(_ text: String) {
        self = text.lowercased() == Self.automaticName ? .automatic : .named(text)
    }

    /// "auto" or the tag, as given.
    public var name: String {
        switch self {
        case .automatic: Self.automaticName
        case .named(let tag): tag
        }
    }

    /// Reads a language as a person gives it (`--language`, the web page's requests), so every
    /// front end accepts the same values and stores one spelling of each:
    /// - "auto", in any case: `.automatic`;
    /// - a BCP 47 tag with `-` or `_` between its subtags, its primary subtag 2 or 3 letters:
    ///   in the tag's usual case ("EN-us" → "en-US", "pt_br" → "pt-BR", "zh-hant-tw" → "zh-Hant-TW");
    /// - a language's English name, in any case, as whisper's own tools take it: its shortest
    ///   ISO 639 code ("english" → "en", "German" → "de", "Norwegian Bokmål" → "nb").
    /// Whether an engine knows the language is the engine's check, not this one.
    /// - Throws: `LanguageTagError` for anything else ("en US", "eng lish", "", "Klingonese").
    public static func parse(_ text: String) throws -> LanguageChoice {
        if text.lowercased() == automaticName { return .automatic }
        if let tag = canonicalTag(text) ?? codeNamed(text) { return .named(tag) }
        throw LanguageTagError(text: text)
    }

    /// `text` in the usual case of a BCP 47 tag, nil when it is not shaped like one: a primary
    /// subtag of 2 or 3 ASCII letters, then subtags of 1 to 8 ASCII letters or digits (at most 35
    /// characters in all). Two letters after the first subtag are a region (upper case), four a
    /// script (title case); anything else is lower case.
    static func canonicalTag(_ text: String) -> String? {
        guard text.count <= 35 else { return nil }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let primary = subtags.first, (2...3).contains(primary.count),
              primary.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return nil }
        var canonical = [primary.lowercased()]
        for subtag in subtags.dropFirst() {
            guard (1...8).contains(subtag.count),
                  subtag.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil) })
            else { return nil }
            let letters = subtag.unicodeScalars.allSatisfy(\.properties.isAlphabetic)
            switch subtag.count {
            case 2 where letters: canonical.append(subtag.uppercased())
            case 4 where letters: canonical.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
            default: canonical.append(subtag.lowercased())
            }
        }
        return canonical.joined(separator: "-")
    }

    /// The shortest ISO 639 code whose English name is `name` (any case), nil when none is.
    static func codeNamed(_ name: String) -> String? {
        let wanted = name.lowercased()
        let english = Locale(identifier: "en")
        return Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
            .filter { english.localizedString(forLanguageCode: $0)?.lowercased() == wanted }
            .min { ($0.count, $0) < ($1.count, $1) }
    }
}

/// A language given that is neither "auto", a BCP 47 tag, nor a language's English name.
public struct LanguageTagError: Error, Equatable, CustomStringConvertible {
    /// The text as given.
    public var text: String

    public init(text: String) {
        self.text = text
    }

    public var description: String {
        "the language must be a BCP 47 tag such as en-US or de, a language's English name such as German, or auto; not '\(text)'"
    }
}

/// A language identifier's answer for some speech: the probability of each language.
public struct LanguageGuess: Sendable, Equatable {
    /// Probability (0 to 1) of each language, by its primary language subtag ("de", "en").
    public var probabilities: [String: Double]

    public init(probabilities: [String: Double]) {
        self.probabilities = probabilities
    }

    /// The most probable language (primary subtag) and its probability; nil for an empty guess.
    /// Ties go to the alphabetically first code, so the answer never depends on dictionary order.
    public var top: (language: String, probability: Double)? {
        probabilities.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }
            .map { ($0.key, $0.value) }
    }
}

/// The language rule of one recording (`--language`, issue 20): which language each decode uses,
/// which is stored as the recording's, and when the user is warned.
///
/// - The language of the first `identificationSeconds` of speech (the first utterances, or all the
///   speech of a shorter recording) is identified once (`identified(_:)`).
/// - `auto`: the most probable language is locked for the whole recording: every decode uses it
///   (none runs before it is known), and it is the recording's language. A detected language that
///   is the fallback's keeps the fallback's region ("en" stays "en-US"); any other is stored as its
///   bare code ("de"). A recording with no speech, or an engine that cannot identify languages,
///   keeps the fallback.
/// - a named language: every decode uses it and it is stored as given. When the identification
///   gives another language at least `warningProbability`, the user gets one warning line; the
///   named language is still used.
public struct LanguageLock: Sendable, Equatable {
    /// The probability another language must reach for a named language to be called into doubt:
    /// 0.8. Whisper base gives espeak-ng's German sentence 0.89 German, and 0.996 to 0.999 English
    /// to each LibriVox file (docs/models.md, "Language").
    public static let warningProbability = 0.8

    /// Seconds of speech identified: 2.5, or all of it when a recording holds less. Whisper base
    /// gives espeak-ng's "Guten Morgen." alone (0.8 s) 0.45 English and 0.15 German; the whole
    /// sentence (3 s), 0.89 German. Under "auto" the first finals wait for it.
    public static let identificationSeconds = 2.5

    /// Seconds of stream time an utterance cut before `identificationSeconds` of speech waits for
    /// the identification at most: 2 (issue 36: under "auto" the first final may wait once, for at
    /// most 2 s more). Then the speech heard so far is identified (`identified(_:earlySpeechSeconds:)`).
    public static let longestWaitSeconds = 2.0

    /// What the user asked for.
    public let choice: LanguageChoice
    /// The tag kept when `auto` detects nothing (no speech) and whose region a detected match keeps: "en-US".
    public let fallback: String
    /// The language detected and locked (primary subtag); nil until the first identification.
    public private(set) var detected: String?
    /// True once an identification was applied (or found impossible): no later decode identifies again.
    public private(set) var settled = false
    /// The library's recent language (`RecentLanguage.of`), taken under `auto` for a recording
    /// with too little speech to identify (`identified(_:recordingSpeechSeconds:)`); nil when the
    /// library has none.
    public let recent: String?

    public init(choice: LanguageChoice, fallback: String = "en-US", recent: String? = nil) {
        self.choice = choice
        self.fallback = fallback
        self.recent = recent
    }

    /// True while the next decode should identify the language first.
    public var needsIdentification: Bool { !settled }

    /// The language a decode uses (a tag for the engine; only its primary subtag matters to
    /// Whisper): the named one, or the locked one; nil under `auto` before the lock, when the decode
    /// must take `language(after:)` of its own identification.
    public var decodeLanguage: String? {
        switch choice {
        case .named(let tag): tag
        case .automatic: detected ?? (settled ? fallback : nil)
        }
    }

    /// The language a decode that identified `guess` uses: the lock's when set, else the guess's
    /// most probable one, else the fallback (an engine that cannot tell).
    public func language(after guess: LanguageGuess?) -> String {
        decodeLanguage ?? guess?.top?.language ?? fallback
    }

    /// The recording's language as it stands: the named tag; under `auto` the locked language
    /// (`storedTag`), or the fallback before any speech.
    public var storedLanguage: String {
        switch choice {
        case .named(let tag): tag
        case .automatic: detected.map { Self.storedTag(detected: $0, fallback: fallback) } ?? fallback
        }
    }

    /// The tag stored for a detected language: the fallback when it is the same language (so
    /// English stays "en-US"), else the detected code ("de").
    public static func storedTag(detected: String, fallback: String) -> String {
        LanguageTag.sameLanguage(fallback, detected) ? fallback : LanguageTag.primarySubtag(detected)
    }

    /// Applies the first identification (nil: the engine cannot identify languages) and returns the
    /// one warning line, if any. Later identifications change nothing and return nil.
    ///
    /// The short-clip rule, under `auto`: a whole recording of less than
    /// `SegmentLanguages.minimumSeconds` of speech (`recordingSpeechSeconds`) is too short to
    /// identify (Whisper base gives espeak-ng's 1.6 s "Danke schön, bis morgen." Malay). It takes
    /// the library's `recent` language; with none, the guess is kept and the returned note says so.
    /// - Parameter recordingSpeechSeconds: the speech of the whole recording when the identification
    ///   heard all of it (the stream ended first); nil when more speech followed.
    /// - Parameter earlySpeechSeconds: the speech heard when an utterance waited `longestWaitSeconds`
    ///   for the identification before `identificationSeconds` of speech came (more may follow); under
    ///   that of `SegmentLanguages.minimumSeconds` it is too short to trust, as a short clip is: the
    ///   library's recent language is taken when there is one, else the guess, with no note.
    public mutating func identified(_ guess: LanguageGuess?, recordingSpeechSeconds: Double? = nil,
                                    earlySpeechSeconds: Double? = nil) -> String? {
        guard !settled else { return nil }
        settled = true
        let short = recordingSpeechSeconds.map { $0 < SegmentLanguages.minimumSeconds } ?? false
        let early = earlySpeechSeconds.map { $0 < SegmentLanguages.minimumSeconds } ?? false
        if choice == .automatic, short || early, let recent {
            detected = LanguageTag.primarySubtag(recent)
            return nil
        }
        guard let guess, let top = guess.top else { return nil }
        switch choice {
        case .automatic:
            detected = top.language
            guard short, let seconds = recordingSpeechSeconds else { return nil }
            return Self.shortClipNote(seconds: seconds, heard: top.language, probability: top.probability)
        case .named(let tag):
            guard !LanguageTag.sameLanguage(top.language, tag), top.probability >= Self.warningProbability else { return nil }
            return Self.warning(named: tag, heard: top.language, probability: top.probability)
        }
    }

    /// "note: only 1.6 s of speech, too little to be sure of its language: it is taken as Malay (ms,
    /// 45%); --language names it".
    public static func shortClipNote(seconds: Double, heard code: String, probability: Double) -> String {
        let percent = Int((probability * 100).rounded(.down))
        return "note: only \(String(format: "%.1f", seconds)) s of speech, too little to be sure of its language: "
            + "it is taken as \(displayName(code)) (\(code), \(percent)%); --language names it"
    }

    /// "warning: the speech sounds like German (de, 93%), not en; it is transcribed as en as asked
    /// (--language auto detects the language)".
    public static func warning(named tag: String, heard code: String, probability: Double) -> String {
        let percent = Int((probability * 100).rounded(.down))
        return "warning: the speech sounds like \(displayName(code)) (\(code), \(percent)%), not \(tag); "
            + "it is transcribed as \(tag) as asked (--language auto detects the language)"
    }

    /// The English name of a language code ("de" → "German"), the code itself when unknown.
    public static func displayName(_ code: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: code) ?? code
    }
}

/// BCP 47 language tags as engines and services compare them: the one place a tag is split.
public enum LanguageTag {
    /// The primary language subtag, lowercased: "en-US" → "en", "pt_BR" → "pt" (an underscore, as
    /// POSIX locales write it, separates too); "" for an empty tag.
    public static func primarySubtag(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// True when both tags name the same language ("en-US", "en" and "EN-gb" do).
    public static func sameLanguage(_ a: String, _ b: String) -> Bool {
        primarySubtag(a) == primarySubtag(b)
    }
}
