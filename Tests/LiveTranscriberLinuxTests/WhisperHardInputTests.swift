import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// Audio made with espeak-ng and sox, as the public reports of issue 20 made it.
enum MadeAudio {
    static func run(_ tool: String, _ arguments: [String]) throws { try ExternalTool.run(tool, arguments) }

    /// A new file in a test folder.
    static func path(_ name: String) throws -> String { try TestFolders.make("lt-made").appendingPathComponent(name).path }

    /// `sox -R INPUT OUTPUT EFFECTS...`: repeatable (`-R`), or sox's dither, seeded anew each run,
    /// makes different samples every time and a decode that is right on some runs only.
    static func sox(_ input: [String], _ effects: [String], name: String) throws -> String {
        let output = try path(name)
        try run("/usr/bin/sox", ["-R"] + input + [output] + effects)
        return output
    }

    /// espeak-ng speaking `text` (16 kHz mono WAV), with more espeak-ng options.
    static func espeak(_ text: String, _ options: [String] = [], name: String) throws -> String {
        let raw = try path("espeak-" + name)
        try run("/usr/bin/espeak-ng", options + ["-w", raw, text])
        return try sox([raw], ["rate", "16000"], name: name)
    }

    static func words(_ path: String) throws -> [String] {
        WordErrorRate.normalizedWords(try WhisperRecognitionTests.transcribe(SndFileReader(path: path)).map(\.text).joined(separator: " "))
    }

    /// The words of whisper.cpp's own decode of the whole file (16 kHz mono), the pipeline's yardstick.
    static func wholeFileWords(_ path: String) throws -> [String] {
        let reader = try SndFileReader(path: path)
        var samples: [Float] = []
        while let buffer = try reader.read(maxFrames: 16_000) { samples += AudioMath.downmixToMono(buffer) }
        return WordErrorRate.normalizedWords(try LinuxSpeechEngines.whisperEngine().transcribeWhole(samples))
    }
}

/// Issue 20's reports from users of other whisper-based tools, imported as `import` does (finals only).
@Suite("Whisper on hard input: no words lost or invented by the pipeline", .serialized)
struct WhisperHardInputTests {
    static let librivox = TestData.librivox + "/sense_and_sensibility_01_austen_64kb-"

    @Test("a word said alone, trimmed to the word, reads as whisper.cpp reads it alone: 'Yes.' (was 'ds')")
    func yesAlone() throws {
        let spoken = try MadeAudio.espeak("yes.", name: "yes-long.wav")
        let trimmed = try MadeAudio.sox([spoken], ["silence", "1", "0.01", "1%", "reverse", "silence", "1", "0.01", "1%", "reverse"],
                                        name: "yes.wav")
        #expect(try MadeAudio.words(trimmed) == ["yes"])
    }

    @Test("a 0.9 s phrase cut from LibriVox reads as whisper.cpp reads it: 'was young man.' (was 'those young men' three times)")
    func shortPhrase() throws {
        let clip = try MadeAudio.sox([Self.librivox + "0880.wav"], ["trim", "1.92", "0.9"], name: "ym.wav")
        #expect(try MadeAudio.words(clip) == ["was", "young", "man"])
    }

    @Test("speech at 1.8 times its pace keeps its end: '… to do for them' (the token cap cut finals)")
    func fastSpeech() throws {
        let fast = try MadeAudio.sox([Self.librivox + "0870.wav"], ["tempo", "1.8"], name: "fast.wav")
        let words = try MadeAudio.words(fast)
        #expect(Array(words.suffix(4)) == ["to", "do", "for", "them"], "\(words)")
        let reference = "and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them"
        // No worse than whisper.cpp's own decode of the whole file ("and if your john dashwood … prudent leaners power …").
        let whole = try MadeAudio.wholeFileWords(fast)
        #expect(WordErrorRate.measure(reference: reference, hypothesis: words.joined(separator: " ")).errors
            <= WordErrorRate.measure(reference: reference, hypothesis: whole.joined(separator: " ")).errors, "\(words) \(whole)")
    }

    @Test("counting from 75 to 80 in a robot voice does not loop: each number at most twice, ending at 80 (was 80 fifteen times)")
    func noRunawayRepetition() throws {
        let numbers = (1...80).map(String.init).joined(separator: ", ")
        let spoken = try MadeAudio.espeak(numbers, ["-s", "170", "-g", "1"], name: "numbers.wav")
        let clip = try MadeAudio.sox([spoken], ["trim", "62.55", "=70.4"], name: "numbers-end.wav")
        let words = try MadeAudio.words(clip)
        #expect(words.last == "80", "\(words)")
        #expect(words.count <= 8, "\(words)")
        // Whisper's whole 30 s window, which a file's decode uses (`UtterancePacking`), misreads this
        // robot voice's numbers as "70000"; decoded in its own frames the clip read "75 76 77 78 78 80".
        // No worse than whisper.cpp's own decode of the whole clip ("7th item, 7th-6th, …").
        let reference = "75 76 77 78 79 80"
        let whole = try MadeAudio.wholeFileWords(clip)
        #expect(WordErrorRate.measure(reference: reference, hypothesis: words.joined(separator: " ")).errors
            <= WordErrorRate.measure(reference: reference, hypothesis: whole.joined(separator: " ")).errors, "\(words) \(whole)")
    }

    @Test("Greek at espeak's normal rate keeps its last third with --language el: the decode reaches '… για την επόμενη'")
    func greekKeepsItsEnd() throws {
        let sentence = "Καλημέρα σας. Σήμερα θα μιλήσουμε για τον καιρό και για τα σχέδιά μας για την επόμενη εβδομάδα."
        let spoken = try MadeAudio.espeak(sentence, ["-v", "el"], name: "greek.wav")
        let segments = try LocalTranscription.transcribe(SndFileReader(path: spoken), recognizer: LinuxSpeechEngines.make(.whisper, language: "el"))
        let words = WordErrorRate.normalizedWords(segments.map(\.text).joined(separator: " "))
        // 17 words spoken; Whisper base misspells some, but none of the end is cut off.
        #expect(words.count >= 15, "\(words)")
        #expect(words.suffix(3).contains("επόμενη"), "\(words)")
    }

    @Test("quiet speech (20 and 30 dB down) is not dropped by the voice activity detection", arguments: ["-20", "-30"])
    func quietSpeech(gain: String) throws {
        let quiet = try MadeAudio.sox([Self.librivox + "0880.wav"], ["gain", gain], name: "quiet\(gain).wav")
        let words = try MadeAudio.words(quiet)
        #expect(WordErrorRate.measure(reference: "he was not an ill disposed young man", hypothesis: words.joined(separator: " ")).errors <= 2,
                "\(words)")
    }
}
