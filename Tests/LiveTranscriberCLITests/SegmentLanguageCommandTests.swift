import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// Every language kept (issue 37): `import` with the real whisper base model on espeak-ng speech,
/// under the default `--language auto`.
@Suite("import keeps every language: each stretch decoded in its own, on real whisper", .serialized)
struct SegmentLanguageCommandTests {
    static let english = "Good morning everyone. Today we talk about the budget for next year and the new projects in the department."
    static let german = "Guten Morgen. Heute besprechen wir den Haushalt für das nächste Jahr und die neuen Projekte in der Abteilung."
    static let french = "Bonjour à tous. Aujourd'hui nous parlons du budget de la ville et des nouvelles écoles."

    /// The files joined one after the other with sox, in a test folder.
    static func joined(_ files: [String], name: String) throws -> String {
        let out = (files[0] as NSString).deletingLastPathComponent + "/" + name
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = files + [out]
        try sox.run()
        sox.waitUntilExit()
        guard sox.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return out
    }

    static func imported(_ file: String, _ library: TemporaryLibrary) throws -> RecordingWithTranscript {
        let result = try runBinary(["import", file, "--json"], environment: WhisperCommandTests.defaultEnvironment(library))
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try LanguageAndVocabularyTests.imported(result)
    }

    static func words(_ saved: RecordingWithTranscript, language: String?) -> Set<String> {
        Set(WordErrorRate.normalizedWords(saved.segments.filter { $0.language == language }.map(\.text).joined(separator: " ")))
    }

    @Test("English then German, and German then English: both sentences kept, the German segment in de (B79: the German was dropped)")
    func englishAndGerman() throws {
        let library = try TemporaryLibrary()
        let en = try LanguageAndVocabularyTests.espeak(Self.english, voice: "en", name: "en.wav")
        let de = try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav")
        let englishFirst = try Self.imported(try Self.joined([en, de], name: "en-de.wav"), library)
        #expect(englishFirst.recording.language == "en-US")
        #expect(englishFirst.segments.compactMap(\.language) == ["de"])
        #expect(Self.words(englishFirst, language: nil).isSuperset(of: ["good", "morning", "budget", "department"]))
        #expect(Self.words(englishFirst, language: "de").isSuperset(of: ["guten", "morgen", "haushalt", "jahr", "abteilung"]))
        let germanFirst = try Self.imported(try Self.joined([de, en], name: "de-en.wav"), library)
        #expect(germanFirst.recording.language == "de")
        #expect(germanFirst.segments.compactMap(\.language) == ["en"])
        #expect(Self.words(germanFirst, language: nil).isSuperset(of: ["guten", "morgen", "jahr"]))
        #expect(Self.words(germanFirst, language: "en").isSuperset(of: ["good", "morning", "budget", "department"]))
    }

    @Test("live lines under auto keep each sentence in its own language: record --no-refine of English then German, and German then English (the German was saved as the English 'Today we will talk about the household')")
    func liveLinesKeepTheirLanguage() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let en = try LanguageAndVocabularyTests.espeak(Self.english, voice: "en", name: "en.wav")
        let de = try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav")
        for file in [try Self.joined([en, de], name: "en-de.wav"), try Self.joined([de, en], name: "de-en.wav")] {
            let recorded = try runBinary(["record", "--input", file, "--speed", "max", "--no-refine", "--no-speakers", "--json"], environment: environment)
            #expect(recorded.exitCode == 0, "\(recorded.stderr)")
            let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(recorded.stdout.utf8))
            let german = saved.segments.filter { LanguageTag.sameLanguage($0.language ?? saved.recording.language, "de") }
            let english = saved.segments.filter { LanguageTag.sameLanguage($0.language ?? saved.recording.language, "en") }
            let germanWords = Set(WordErrorRate.normalizedWords(german.map(\.text).joined(separator: " ")))
            let englishWords = Set(WordErrorRate.normalizedWords(english.map(\.text).joined(separator: " ")))
            #expect(germanWords.isSuperset(of: ["guten", "morgen", "haushalt", "jahr", "abteilung"]), "\(saved.segments)")
            #expect(englishWords.isSuperset(of: ["good", "morning", "budget", "department"]), "\(saved.segments)")
            #expect(englishWords.isDisjoint(with: ["household"]), "\(saved.segments)")  // no translation of the German
        }
    }

    @Test("import and record (its second pass on) give the same languages and the same words for the same file: German alone, English then German (B60: record saved an English translation)")
    func importAndRecordAgree() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let en = try LanguageAndVocabularyTests.espeak(Self.english, voice: "en", name: "en.wav")
        let de = try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav")
        for file in [de, try Self.joined([en, de], name: "en-de.wav")] {
            let imported = try Self.imported(file, library)
            let recorded = try runBinary(["record", "--input", file, "--speed", "max", "--no-speakers", "--json"], environment: environment)
            #expect(recorded.exitCode == 0, "\(recorded.stderr)")
            let saved = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(recorded.stdout.utf8))
            #expect(saved.recording.language == imported.recording.language)
            #expect(saved.segments.map(\.language) == imported.segments.map(\.language))
            #expect(saved.segments.map(\.text) == imported.segments.map(\.text))
        }
    }

    @Test("German alone is German text stored as de (B60: import saved nothing)")
    func germanAlone() throws {
        let library = try TemporaryLibrary()
        let saved = try Self.imported(try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav"), library)
        #expect(saved.recording.language == "de")
        #expect(Self.words(saved, language: nil).isSuperset(of: ["guten", "morgen", "heute", "besprechen", "haushalt", "abteilung"]))
    }

    @Test("French then English in one breath group: split at the pause, the English kept as English (was text in no language)")
    func frenchThenEnglish() throws {
        let library = try TemporaryLibrary()
        let fr = try LanguageAndVocabularyTests.espeak(Self.french, voice: "fr", name: "fr.wav")
        let en = try LanguageAndVocabularyTests.espeak(Self.english, voice: "en", name: "en.wav")
        let saved = try Self.imported(try Self.joined([fr, en], name: "fr-en.wav"), library)
        #expect(saved.segments.count == 2)
        let first = Set(WordErrorRate.normalizedWords(saved.segments.first?.text ?? ""))
        let last = Set(WordErrorRate.normalizedWords(saved.segments.last?.text ?? ""))
        #expect(first.contains("bonjour"))
        #expect(last.isSuperset(of: ["good", "morning", "budget", "department"]))
        #expect(saved.recording.language == "en-US")
        #expect(saved.segments.first?.language == "fr")
        // `show` and the text export name the language where it changes: French first, then English.
        let shown = try runBinary(["show", saved.recording.id], environment: WhisperCommandTests.defaultEnvironment(library)).stdout
        let lines = shown.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(lines.count == 2 && lines[0].hasPrefix("[0:00] ") && lines[0].contains("(fr) ") && lines[1].contains("] (en-US) "), "\(shown)")
        let text = try runBinary(["export", saved.recording.id, "--format", "txt"], environment: WhisperCommandTests.defaultEnvironment(library)).stdout
        #expect(text.contains("(fr) ") && text.contains("] (en-US) "), "\(text)")
    }

    @Test("a 1.6 s German clip takes the library's recent language, on import and on retranscribe --language auto (B80: saved as an English translation)")
    func shortGermanClip() throws {
        let library = try TemporaryLibrary()
        _ = try Self.imported(try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav"), library)
        let clip = try LanguageAndVocabularyTests.espeak("Danke schön, bis morgen.", voice: "de", name: "clip.wav")
        let saved = try Self.imported(clip, library)
        #expect(saved.recording.language == "de")
        #expect(Self.words(saved, language: nil).isSuperset(of: ["danke", "morgen"]))
        let again = try runBinary(["retranscribe", saved.recording.id, "--language", "auto", "--no-speakers", "--json"],
                                  environment: WhisperCommandTests.defaultEnvironment(library))
        #expect(again.exitCode == 0, "\(again.stderr)")
        let document = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(again.stdout.utf8))
        #expect(document.recording.language == "de")
        #expect(Set(WordErrorRate.normalizedWords(document.segments.map(\.text).joined(separator: " "))).isSuperset(of: ["danke", "morgen"]))
    }

    @Test("--translate keeps an English translation next to the German transcript, which stays German; export --transcript translated writes it")
    func translate() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let saved = try Self.imported(try LanguageAndVocabularyTests.espeak(Self.german, voice: "de", name: "de.wav"), library)
        let id = saved.recording.id
        let missing = try runBinary(["export", id, "--format", "txt", "--transcript", "translated"], environment: environment)
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "error: 'de' (\(id)) has no translation; make one with 'livetranscriber retranscribe \(id) --translate'\n")
        let translated = try runBinary(["retranscribe", id, "--translate", "--json"], environment: environment)
        #expect(translated.exitCode == 0, "\(translated.stderr)")
        // The translation under its own key, not the transcript's `segments`.
        struct Translated: Decodable { var recording: Recording; var translation: [TranscriptSegment] }
        let document = try JSONDecoder.liveTranscriber.decode(Translated.self, from: Data(translated.stdout.utf8))
        #expect(try JSONSerialization.jsonObject(with: Data(translated.stdout.utf8)) as? [String: Any] != nil)
        #expect(!translated.stdout.contains(#""segments""#))
        #expect(document.recording.translation == "en")
        #expect(document.recording.language == "de")
        // Whisper base's English for the sentence: "Good morning. Today we will talk about the household for the next year…"
        let english = Set(WordErrorRate.normalizedWords(document.translation.map(\.text).joined(separator: " ")))
        #expect(english.isSuperset(of: ["good", "morning", "today", "next", "year", "new"]), "\(english)")
        #expect(english.isDisjoint(with: ["guten", "morgen", "heute", "jahr"]))
        let text = try runBinary(["export", id, "--format", "txt", "--transcript", "translated"], environment: environment)
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("Good morning."), "\(text.stdout)")
        let current = try runBinary(["export", id, "--format", "txt"], environment: environment)
        #expect(current.stdout.contains("Guten Morgen."), "\(current.stdout)")
        let shown = try runBinary(["show", id], environment: environment).stdout
        #expect(shown.contains("Translation:  en (export \(id) --format txt --transcript translated)"), "\(shown)")
        let refused = try runBinary(["retranscribe", id, "--translate", "--restore"], environment: environment)
        #expect(refused.exitCode == 64)
        #expect(refused.stderr.hasPrefix("error: '--translate' and '--restore' cannot be given together\n"))
        // pocketsphinx cannot translate: a usage error, before anything is read, whatever the recording's language.
        let files = Set(try FileManager.default.subpathsOfDirectory(atPath: library.url.path))
        let retranslated = try runBinary(["retranscribe", id, "--translate", "--engine", "pocketsphinx"], environment: environment)
        #expect(retranslated.exitCode == 64)
        #expect(retranslated.stderr.hasPrefix("error: pocketsphinx cannot translate; use --engine whisper\n"), "\(retranslated.stderr)")
        let other = try LanguageAndVocabularyTests.espeak("Guten Abend.", voice: "de", name: "other.wav")
        let imported = try runBinary(["import", other, "--translate", "--engine", "pocketsphinx"], environment: environment)
        #expect(imported.exitCode == 64)
        #expect(imported.stderr.hasPrefix("error: pocketsphinx cannot translate; use --engine whisper\n"), "\(imported.stderr)")
        #expect(Set(try FileManager.default.subpathsOfDirectory(atPath: library.url.path)) == files)  // nothing was imported
    }
}
