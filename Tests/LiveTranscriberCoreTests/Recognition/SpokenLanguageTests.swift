import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// A decoder of many languages: identification answers `guess`; each decode answers one word,
/// "w-<language>", and both are recorded.
final class LanguageDecoder: UtteranceDecoder, @unchecked Sendable {
    let guess: LanguageGuess?
    private let lock = NSLock()
    private var language = "?"
    private var recorded: [String] = []

    init(guess: LanguageGuess?) { self.guess = guess }

    /// "identify 2500" for an identification of 2,500 samples, "decode 1300 de" for a decode.
    var calls: [String] { lock.withLock { recorded } }

    var identifiesLanguages: Bool { true }

    func identifyLanguage(_ samples: [Float]) throws -> LanguageGuess? {
        lock.withLock { recorded.append("identify \(samples.count)") }
        return guess
    }

    func useLanguage(_ language: String) { lock.withLock { self.language = language } }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        let current: String = lock.withLock {
            recorded.append("decode \(samples.count) \(self.language)")
            return self.language
        }
        return [WordTiming(word: "w-\(current)", startSeconds: 0.2, endSeconds: 0.6)]
    }
}

@Suite("Language as a person gives it: one stored spelling (LanguageChoice.parse)")
struct LanguageChoiceParseTests {
    @Test("auto in any case, tags in their usual case, English names as their code", arguments: [
        ("auto", LanguageChoice.automatic), ("AUTO", .automatic),
        ("en-US", .named("en-US")), ("EN-us", .named("en-US")), ("pt_br", .named("pt-BR")), ("de", .named("de")),
        ("zh-hant-tw", .named("zh-Hant-TW")), ("es-419", .named("es-419")), ("yue", .named("yue")),
        ("english", .named("en")), ("English", .named("en")), ("GERMAN", .named("de")), ("Greek", .named("el")),
        ("Norwegian Bokmål", .named("nb")), ("chinese", .named("zh")),
    ])
    func accepted(text: String, choice: LanguageChoice) throws {
        #expect(try LanguageChoice.parse(text) == choice)
    }

    @Test("anything else is refused with one sentence naming it", arguments: [
        "", "en US", "e", "englishh", "Klingonese", "en-", "-en", "en--US", "en-toolongsubtag", "de-ÄT", "1en", "en_US.UTF-8",
    ])
    func refused(text: String) {
        #expect(throws: LanguageTagError(text: text)) { try LanguageChoice.parse(text) }
        #expect(LanguageTagError(text: text).description
            == "the language must be a BCP 47 tag such as en-US or de, a language's English name such as German, or auto; not '\(text)'")
    }
}

@Suite("Language: auto detected once and locked, a named language warned about (LanguageLock)")
struct SpokenLanguageTests {
    static let german = LanguageGuess(probabilities: ["de": 0.93, "en": 0.02, "ru": 0.01])
    static let english = LanguageGuess(probabilities: ["en": 0.997, "la": 0.001])

    /// The warning lines a recognizer gave (told on the caller's thread).
    final class Warnings { var lines: [String] = [] }

    func recognizer(_ language: String, decoder: LanguageDecoder, warnings: Warnings = Warnings()) -> UtteranceRecognizer {
        UtteranceRecognizer(language: language, sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                            worker: InlineDecodeWorker(), interims: false, packing: .alone,
                            languageWarning: { warnings.lines.append($0) })
    }

    /// Feeds `samples` 0.1 s at a time and returns the texts of the finals they gave.
    func finals(_ recognizer: UtteranceRecognizer, _ samples: [Float]) throws -> [String] {
        var events: [RecognitionEvent] = []
        for start in stride(from: 0, to: samples.count, by: 100) {
            events += try recognizer.accept(.float32(Array(samples[start..<min(samples.count, start + 100)])))
        }
        return events.compactMap { if case .final(let segment) = $0 { segment.text } else { nil } }
    }

    static func speech(_ seconds: Double) -> [Float] { UtteranceRecognizerTests.speech(seconds) }
    static func silence(_ seconds: Double) -> [Float] { UtteranceRecognizerTests.silence(seconds) }

    @Test("auto: nothing is decoded before 2.5 s of speech are identified; then every utterance, the first too, is decoded in the language found, which is stored")
    func automaticLocksAfterIdentification() throws {
        let decoder = LanguageDecoder(guess: Self.german)
        let recognizer = recognizer("auto", decoder: decoder)
        // A first utterance of 1 s (cut with its padding: 1.3 s of audio): too little to identify, so it waits.
        #expect(try finals(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1)) == [])
        #expect(decoder.calls == [])
        #expect(recognizer.language == "en-US")
        // The second utterance opens at 2.8 s; at 4.0 s the two hold 1.3 + 1.2 = 2.5 s: identified, locked,
        // and the waiting first utterance is decoded in German at once.
        #expect(try finals(recognizer, Self.speech(1)) == ["w-de"])
        #expect(decoder.calls == ["identify 2500", "decode 1300 de"])
        #expect(recognizer.language == "de")
        #expect(try finals(recognizer, Self.speech(1) + Self.silence(1)) == ["w-de"])
        #expect(try recognizer.finish() == [])
        #expect(decoder.calls == ["identify 2500", "decode 1300 de", "decode 2300 de"])
    }

    @Test("auto: a recording with less speech than 2.5 s is identified on all of it when it ends; English keeps the fallback's region")
    func automaticShortRecording() throws {
        let decoder = LanguageDecoder(guess: Self.english)
        let recognizer = recognizer("auto", decoder: decoder)
        #expect(try finals(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1)) == [])
        let events = try recognizer.finish()
        #expect(events.compactMap { if case .final(let segment) = $0 { segment.text } else { nil } } == ["w-en"])
        #expect(decoder.calls == ["identify 1300", "decode 1300 en"])
        #expect(recognizer.language == "en-US")
    }

    @Test("auto: an utterance cut before 2.5 s of speech waits for the identification 2 s of stream time at most, then what was heard is identified; under 3 s of it, the library's recent language is taken when there is one")
    func automaticShortFirstUtteranceWaitsAtMostTwoSeconds() throws {
        let decoder = LanguageDecoder(guess: Self.english)
        let recognizer = recognizer("auto", decoder: decoder)
        // "Yes." and silence: cut with its padding (1.3 s of audio), it waits for more speech.
        #expect(try finals(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1)) == [])
        #expect(decoder.calls == [])
        #expect(try finals(recognizer, Self.silence(1)) == [])
        // 2 s after its cut (no more speech came), the 1.3 s heard are identified and it is decoded.
        #expect(try finals(recognizer, Self.silence(1)) == ["w-en"])
        #expect(decoder.calls == ["identify 1300", "decode 1300 en"])
        #expect(recognizer.language == "en-US")

        let withRecent = LanguageDecoder(guess: Self.english)
        let recent = UtteranceRecognizer(language: "auto", sampleRate: 1_000, detector: ScriptedDetector(), decoder: withRecent,
                                         worker: InlineDecodeWorker(), interims: false, packing: .alone, recentLanguage: "de")
        #expect(try finals(recent, Self.silence(1) + Self.speech(1) + Self.silence(3.5)) == ["w-de"])
        #expect(withRecent.calls == ["identify 1300", "decode 1300 de"])
        #expect(recent.language == "de")
    }

    @Test("the early identification rule: under 3 s of speech, the recent language when there is one, else the guess, with no note; 3 s or more, the guess")
    func earlyIdentification() {
        let malay = LanguageGuess(probabilities: ["ms": 0.45, "de": 0.2])
        var withRecent = LanguageLock(choice: .automatic, recent: "de")
        #expect(withRecent.identified(malay, earlySpeechSeconds: 1.3) == nil)
        #expect(withRecent.storedLanguage == "de")
        var alone = LanguageLock(choice: .automatic)
        #expect(alone.identified(malay, earlySpeechSeconds: 1.3) == nil)
        #expect(alone.storedLanguage == "ms")
        var enough = LanguageLock(choice: .automatic, recent: "de")
        #expect(enough.identified(malay, earlySpeechSeconds: 3.0) == nil)
        #expect(enough.storedLanguage == "ms")
    }

    @Test("auto: a recording without speech identifies nothing and keeps the fallback language")
    func automaticWithoutSpeech() throws {
        let decoder = LanguageDecoder(guess: Self.german)
        let recognizer = recognizer("auto", decoder: decoder)
        #expect(try finals(recognizer, Self.silence(3)) == [])
        #expect(try recognizer.finish() == [])
        #expect(decoder.calls == [])
        #expect(recognizer.language == "en-US")
    }

    @Test("auto with a decoder that cannot identify languages (an English-only model) decodes at once in the fallback")
    func automaticWithoutIdentification() throws {
        let decoder = ScriptedDecoder()
        let recognizer = UtteranceRecognizer(language: "auto", sampleRate: 1_000, detector: ScriptedDetector(), decoder: decoder,
                                             worker: InlineDecodeWorker(), interims: false, packing: .alone)
        #expect(try finals(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1)) == ["w0"])
        #expect(recognizer.language == "en-US")
    }

    @Test("a named language is decoded from the first utterance on, and German speech under --language en gives one warning line")
    func namedLanguageWarnsOnce() throws {
        let decoder = LanguageDecoder(guess: Self.german)
        let warnings = Warnings()
        let recognizer = recognizer("en", decoder: decoder, warnings: warnings)
        #expect(try finals(recognizer, Self.silence(1) + Self.speech(1) + Self.silence(1)) == ["w-en"])
        #expect(try finals(recognizer, Self.speech(2) + Self.silence(1) + Self.speech(3) + Self.silence(1)) == ["w-en", "w-en"])
        _ = try recognizer.finish()
        #expect(decoder.calls == ["decode 1300 en", "identify 2500", "decode 2300 en", "decode 3300 en"])
        #expect(warnings.lines == [
            "warning: the speech sounds like German (de, 93%), not en; it is transcribed as en as asked (--language auto detects the language)",
        ])
        #expect(recognizer.language == "en")
    }

    @Test("the warning rule: another language at 80% or more warns; 79%, or the named language itself, does not; only the first identification counts")
    func warningThreshold() {
        var lock = LanguageLock(choice: .named("en-US"))
        #expect(lock.identified(LanguageGuess(probabilities: ["de": 0.79, "en": 0.2])) == nil)
        #expect(lock.identified(Self.german) == nil)  // settled by the first
        var matching = LanguageLock(choice: .named("en-GB"))
        #expect(matching.identified(Self.english) == nil)
        var contradicted = LanguageLock(choice: .named("fr"))
        #expect(contradicted.identified(LanguageGuess(probabilities: ["de": 0.8, "fr": 0.1])) != nil)
        #expect(contradicted.storedLanguage == "fr")
    }

    @Test("what is stored: a detected language the fallback shares keeps its region (pt → pt-BR), any other is its bare code; before any identification, the fallback")
    func storedTags() {
        #expect(LanguageLock.storedTag(detected: "en", fallback: "en-US") == "en-US")
        #expect(LanguageLock.storedTag(detected: "pt", fallback: "pt-BR") == "pt-BR")
        #expect(LanguageLock.storedTag(detected: "de", fallback: "en-US") == "de")
        var lock = LanguageLock(choice: .automatic, fallback: "en-US")
        #expect(lock.storedLanguage == "en-US")
        #expect(lock.decodeLanguage == nil)
        #expect(lock.identified(Self.german) == nil)
        #expect(lock.storedLanguage == "de")
        #expect(lock.decodeLanguage == "de")
        #expect(LanguageChoice("AUTO") == .automatic)
        #expect(LanguageChoice("de-AT") == .named("de-AT"))
    }

    @Test("the most probable language, ties to the alphabetically first")
    func topOfGuess() {
        #expect(LanguageGuess(probabilities: ["th": 0.4, "el": 0.4, "en": 0.2]).top?.language == "el")
        #expect(LanguageGuess(probabilities: [:]).top == nil)
    }
}

@Suite("Vocabulary: parsing, precedence and the prompt's bound")
struct VocabularyTests {
    @Test("a term's terminal escapes and other control or invisible characters become spaces (runs collapsed, ends trimmed), as in names made from outside text")
    func hiddenCharacters() {
        #expect(Vocabulary.parse("Dash\u{1B}[31mwood, \u{1B}[31mred\u{1B}[0m, Nor\u{202E}land, \u{200B}, Mrs.\tJennings").terms
            == ["Dash wood", "red", "Nor land", "Mrs. Jennings"])
        #expect(Vocabulary(["\u{7}\u{1B}[2J"]).isEmpty)
    }

    @Test("terms are split at commas, semicolons and line breaks; blanks, repeats (any case) and # comment lines are dropped")
    func parsing() {
        let text = "Dashwood, Norland;\n# names from chapter 1\n dashwood \n\nMrs. Jennings,,"
        #expect(Vocabulary.parse(text).terms == ["Dashwood", "Norland", "Mrs. Jennings"])
        #expect(Vocabulary.parse(text).prompt == "Dashwood, Norland, Mrs. Jennings.")
        #expect(Vocabulary(["Who is Dashwood?"]).prompt == "Who is Dashwood?")
        #expect(Vocabulary.parse(" , ").isEmpty)
        #expect(Vocabulary(["Dashwood", "Norland"]).prompt == "Dashwood, Norland.")  // ended as a sentence
        #expect(Vocabulary().prompt == "")
    }

    @Test("--vocabulary wins over LIVETRANSCRIBER_VOCABULARY, which wins over the library's file; an empty value given turns the later ones off")
    func precedence() {
        #expect(Vocabulary.chosen(option: "Dashwood", environment: "Norland", libraryFile: "Jennings") == (Vocabulary(["Dashwood"]), .option))
        #expect(Vocabulary.chosen(option: nil, environment: "Norland", libraryFile: "Jennings") == (Vocabulary(["Norland"]), .environment))
        #expect(Vocabulary.chosen(option: nil, environment: nil, libraryFile: "Jennings\nMarianne") == (Vocabulary(["Jennings", "Marianne"]), .libraryFile))
        #expect(Vocabulary.chosen(option: "", environment: "Norland", libraryFile: "Jennings") == (Vocabulary(), .option))
        #expect(Vocabulary.chosen(option: nil, environment: "", libraryFile: "Jennings") == (Vocabulary(), .environment))
        #expect(Vocabulary.chosen(option: nil, environment: nil, libraryFile: nil) == (Vocabulary(), .none))
    }

    @Test("the prompt is cut at a term boundary: the leading terms whose prompt fits the bound")
    func bound() {
        let words: (String) -> Int = { $0.split(separator: " ").count }  // one token a word, for the test
        let vocabulary = Vocabulary(["Mrs. Jennings", "Norland", "Barton Park", "Dashwood"])
        #expect(vocabulary.bounded(maxTokens: 3, count: words).terms == ["Mrs. Jennings", "Norland"])
        #expect(vocabulary.bounded(maxTokens: 1, count: words).terms == [])
        #expect(vocabulary.bounded(maxTokens: 100, count: words) == vocabulary)
    }

    @Test("a recording's vocabulary is written only when there is one, and metadata written before it existed reads as none")
    func storedWithRecording() throws {
        let recording = Recording(id: "20261202-060000-abcd", name: "Walk", createdAt: Date(timeIntervalSince1970: 1_764_655_200),
                                  durationSeconds: 3, language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        let plain = String(decoding: try JSONEncoder.liveTranscriber.encode(recording), as: UTF8.self)
        #expect(!plain.contains("vocabulary"))
        #expect(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(plain.utf8)).vocabulary == [])
        var named = recording
        named.vocabulary = ["Dashwood", "Norland"]
        let text = String(decoding: try JSONEncoder.liveTranscriber.encode(named), as: UTF8.self)
        #expect(text.contains("\"vocabulary\" : [\n    \"Dashwood\",\n    \"Norland\"\n  ]"))
        #expect(try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(text.utf8)) == named)
    }
}
