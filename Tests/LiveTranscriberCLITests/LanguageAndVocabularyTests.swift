import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// `--language auto` and `--vocabulary` with the real whisper engine on espeak-ng speech (issue 20).
@Suite("livetranscriber: the language detected, a named one warned about, a vocabulary given to whisper", .serialized)
struct LanguageAndVocabularyTests {
    /// espeak-ng speaking `text` with `voice`, as a 16 kHz mono WAV file in a test folder.
    static func espeak(_ text: String, voice: String = "en", name: String) throws -> String {
        let folder = try TestFolders.make("lt-spoken")
        let raw = folder.appendingPathComponent("raw-" + name).path, wav = folder.appendingPathComponent(name).path
        for (tool, arguments) in [("/usr/bin/espeak-ng", ["-v", voice, "-w", raw, text]), ("/usr/bin/sox", ["-R", "-D", raw, "-r", "16000", "-c", "1", wav])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        return wav
    }

    static let germanSentence = "Guten Morgen. Heute sprechen wir über das Wetter."
    /// Whisper base's reading of espeak-ng's German sentence in a file (`import`: Whisper's whole window).
    static let germanWords = ["guten", "morgen", "heute", "sprechen", "wir", "über", "das", "metzer"]
    /// The same recorded live (`record`'s finals, the page's Record; what `record` saves before its
    /// second pass): each utterance decoded in its own frames.
    static let germanLiveWords = ["guten", "morgen", "heute", "sprechen", "die", "überdismeter"]

    static func imported(_ result: CommandResult) throws -> RecordingWithTranscript {
        let saved = try JSONDecoder.liveTranscriber.decode([RecordingWithTranscript].self, from: Data(result.stdout.utf8))
        return try #require(saved.first)
    }

    static func words(_ saved: RecordingWithTranscript) -> [String] {
        WordErrorRate.normalizedWords(saved.segments.map(\.text).joined(separator: " "))
    }

    @Test("German imported and recorded with the default language is German text stored as de (was translated and stored as en-US), with no warning")
    func germanDetected() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let german = try Self.espeak(Self.germanSentence, voice: "de", name: "german.wav")
        let result = try runBinary(["import", german, "--json"], environment: environment)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        let saved = try Self.imported(result)
        #expect(saved.recording.language == "de")
        #expect(Self.words(saved) == Self.germanWords)
        let recorded = try runBinary(["record", "--input", german, "--speed", "max", "--json"], environment: environment)
        #expect(recorded.exitCode == 0, "\(recorded.stderr)")
        // Saved after the second pass: the file path's reading, as import's; the live reading is the previous transcript.
        let refined = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(recorded.stdout.utf8))
        #expect(refined.recording.language == "de")
        #expect(Self.words(refined) == Self.germanWords)
        #expect(library.run("retranscribe", refined.recording.id, "--restore").exitCode == 0)
        let shown = library.run("show", refined.recording.id, "--json")
        let live = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(shown.stdout.utf8))
        #expect(live.recording.language == "de")
        #expect(Self.words(live) == Self.germanLiveWords)
    }

    @Test("German recorded under auto with a vocabulary, killed with SIGKILL after its first final: recovered as de with its vocabulary (the draft said en-US and kept no vocabulary)")
    func killedAutoRecordingKeepsItsLanguage() throws {
        let library = try TemporaryLibrary()
        let german = try Self.espeak(Self.germanSentence, voice: "de", name: "german.wav")
        // 20 s of silence after the sentence: the recording is still running when it is killed.
        let padded = (german as NSString).deletingLastPathComponent + "/german-padded.wav"
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = ["-R", german, padded, "pad", "0", "20"]
        try sox.run()
        sox.waitUntilExit()
        try #require(sox.terminationStatus == 0)
        let (process, stdout, _) = try startBinary(["record", "--input", padded, "--engine", "whisper", "--vocabulary", "Wetter, Morgen"],
                                                   library: library)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(readOutput(until: "]", in: stdout).hasPrefix("[0:0"))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let listed = library.run("list", "--json")
        #expect(listed.stderr.hasPrefix("note: recovered an interrupted recording: "), "\(listed.stderr)")
        let recordings = try JSONDecoder.liveTranscriber.decode([Recording].self, from: Data(listed.stdout.utf8))
        #expect(recordings.map(\.language) == ["de"])
        #expect(recordings.map(\.recovered) == [true])
        #expect(recordings.map(\.vocabulary) == [["Wetter", "Morgen"]])
    }

    /// Imports espeak-ng's German sentence into a new library with `--language language`; the
    /// library's environment comes back for the commands that follow.
    func importGerman(language: String) throws -> (library: TemporaryLibrary, environment: [String: String], result: CommandResult) {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let german = try Self.espeak(Self.germanSentence, voice: "de", name: "german.wav")
        return (library, environment, try runBinary(["import", german, "--language", language, "--json"], environment: environment))
    }

    @Test("--language en on German speech: one warning line, English as asked; retranscribe --language auto makes it German")
    func namedLanguageWarns() throws {
        let (library, environment, result) = try importGerman(language: "en")
        defer { withExtendedLifetime(library) {} }
        #expect(result.exitCode == 0)
        // 88% as retranscribe hears it (import ran the live recognizer until 2026-12-02 and said 89%).
        #expect(result.stderr == "warning: the speech sounds like German (de, 88%), not en; it is transcribed as en as asked (--language auto detects the language)\n")
        let saved = try Self.imported(result)
        #expect(saved.recording.language == "en")
        let again = try runBinary(["retranscribe", saved.recording.id, "--language", "auto", "--json"], environment: environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let redone = try JSONDecoder.liveTranscriber.decode(RecordingWithTranscript.self, from: Data(again.stdout.utf8))
        #expect(redone.recording.language == "de")
        // The library's copy (16 kHz) read again: Whisper base hears "Wetter" as "Metzer" there.
        #expect(Self.words(redone) == ["guten", "morgen", "heute", "sprechen", "wir", "über", "das", "metzer"])
    }

    @Test("a language's English name is stored as its code and EN-us as en-US: German speech named German gets no warning")
    func languageSpellings() throws {
        let (library, environment, named) = try importGerman(language: "German")
        defer { withExtendedLifetime(library) {} }
        #expect(named.exitCode == 0)
        #expect(named.stderr == "")
        #expect(try Self.imported(named).recording.language == "de")
        let tag = try runBinary(["import", Speech.librivox, "--language", "EN-us", "--json"], environment: environment)
        #expect(tag.exitCode == 0)
        #expect(tag.stderr == "")
        #expect(try Self.imported(tag).recording.language == "en-US")
    }

    @Test("English with the default language stays en-US, and pocketsphinx takes auto as en-US and says it takes no vocabulary")
    func englishAndPocketsphinx() throws {
        let library = try TemporaryLibrary()
        let result = try runBinary(["import", Speech.librivox, "--json"], environment: WhisperCommandTests.defaultEnvironment(library))
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(try Self.imported(result).recording.language == "en-US")
        let sphinx = try runBinary(["import", Speech.librivox, "--again", "--vocabulary", "Dashwood, Norland", "--json"],
                                   environment: library.environment)
        #expect(sphinx.exitCode == 0)
        #expect(sphinx.stderr == "note: pocketsphinx takes no vocabulary; 2 terms not used\n")
        let saved = try Self.imported(sphinx)
        #expect(saved.recording.language == "en-US")
        #expect(saved.recording.vocabulary == [])
    }

    static let norlandSentence = "Elinor Dashwood walked to Norland Park with Mrs. Jennings."

    @Test("a rare name comes out right with the vocabulary and wrong without: 'Norland Park' (not 'an island park'); stored and shown")
    func vocabularyFlipsAName() throws {
        let library = try TemporaryLibrary()
        let environment = WhisperCommandTests.defaultEnvironment(library)
        let spoken = try Self.espeak(Self.norlandSentence, name: "norland.wav")
        let without = try runBinary(["import", spoken, "--json"], environment: environment)
        #expect(without.exitCode == 0)
        let withoutWords = Self.words(try Self.imported(without))
        #expect(withoutWords == ["in", "a", "national", "world", "an", "island", "park", "with", "missus", "jennings"], "\(withoutWords)")
        let with = try runBinary(["import", spoken, "--again", "--vocabulary", "Dashwood, Norland", "--json"], environment: environment)
        #expect(with.exitCode == 0)
        #expect(with.stderr == "")
        let saved = try Self.imported(with)
        #expect(Self.words(saved) == ["the", "leader", "of", "the", "hushwood", "worked", "to", "norland", "park", "with", "missus", "jennings"])
        #expect(saved.recording.vocabulary == ["Dashwood", "Norland"])
        let shown = try runBinary(["show", saved.recording.id], environment: environment)
        #expect(shown.stdout.contains("\nVocabulary:  Dashwood, Norland\n"), "\(shown.stdout)")
    }

    @Test("the vocabulary comes from --vocabulary, else LIVETRANSCRIBER_VOCABULARY, else the library's vocabulary.txt; --no-vocabulary gives none")
    func vocabularyPrecedence() throws {
        let library = try TemporaryLibrary()
        try "# names\nNorland\nBarton Park\n".write(to: library.url.appendingPathComponent("vocabulary.txt"), atomically: true, encoding: .utf8)
        let clip = Speech.librivox
        func vocabulary(_ arguments: [String], variable: String?) throws -> [String] {
            var environment = library.environment  // pocketsphinx: fast, and the words do not matter here
            environment[LinuxSpeechEngines.engineVariable] = "whisper"
            environment[Vocabulary.environmentVariable] = variable
            let result = try runBinary(["import", clip, "--again", "--json"] + arguments, environment: environment)
            #expect(result.exitCode == 0, "\(result.stderr)")
            return try Self.imported(result).recording.vocabulary
        }
        #expect(try vocabulary([], variable: nil) == ["Norland", "Barton Park"])
        #expect(try vocabulary([], variable: "Dashwood") == ["Dashwood"])
        #expect(try vocabulary(["--vocabulary", "Jennings, Marianne"], variable: "Dashwood") == ["Jennings", "Marianne"])
        #expect(try vocabulary(["--no-vocabulary"], variable: "Dashwood") == [])
    }
}
