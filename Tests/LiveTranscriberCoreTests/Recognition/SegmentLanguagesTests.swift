import Foundation
import LiveTranscriberCore
import Testing

/// The per-stretch language rules (issue 37), the short-clip rule and the invented-phrase rule.
@Suite("Segment languages, short clips and Whisper's invented phrases")
struct SegmentLanguagesTests {
    static func guess(_ language: String, _ probability: Double) -> LanguageGuess {
        LanguageGuess(probabilities: [language: probability, "xx": 1 - probability])
    }

    @Test("a pack is in doubt when its locked language has less than 80% (en-DE pack 71% en, fr locked), never with no guess")
    func packDoubt() {
        #expect(SegmentLanguages.isInDoubt(Self.guess("en", 0.71), locked: "fr"))
        #expect(SegmentLanguages.isInDoubt(Self.guess("en", 0.79), locked: "en-US"))
        #expect(!SegmentLanguages.isInDoubt(Self.guess("en", 0.8), locked: "en-US"))
        #expect(!SegmentLanguages.isInDoubt(nil, locked: "en-US"))
    }

    @Test("each utterance takes its sure language; unsure and short ones the one before, the first ones the next sure one, else the locked")
    func utteranceLanguages() {
        let guesses: [LanguageGuess?] = [nil, Self.guess("de", 0.95), Self.guess("fr", 0.5), nil, Self.guess("en", 0.9)]
        #expect(SegmentLanguages.utteranceLanguages(guesses, locked: "en-US") == ["de", "de", "de", "de", "en"])
        #expect(SegmentLanguages.utteranceLanguages([nil, Self.guess("ms", 0.45)], locked: "en-US") == ["en", "en"])
    }

    @Test("runs of consecutive utterances not in the locked language, each with its language")
    func foreignRuns() {
        let runs = SegmentLanguages.foreignRuns(["en", "de", "de", "en", "fr", "de"], locked: "en-US")
        #expect(runs.map(\.utterances) == [1..<3, 4..<5, 5..<6])
        #expect(runs.map(\.language) == ["de", "fr", "de"])
        #expect(SegmentLanguages.foreignRuns(["en", "en"], locked: "en-US").isEmpty)
    }

    @Test("the two sides of a split: an unsure side is the locked language; nil when both are the same or no foreign side is sure")
    func sideLanguages() {
        // espeak-ng's French then English, locked fr: the French side Thai at 17%, the English side English at 94%.
        let found = SegmentLanguages.sideLanguages(LanguageGuess(probabilities: ["th": 0.17, "fr": 0.15]),
                                                   Self.guess("en", 0.94), locked: "fr")
        #expect(found?.first == "fr")
        #expect(found?.second == "en")
        #expect(found?.confidence == 0.94)
        #expect(SegmentLanguages.sideLanguages(Self.guess("en", 0.36), Self.guess("en", 0.86), locked: "en-US") == nil)
        #expect(SegmentLanguages.sideLanguages(Self.guess("fr", 0.5), Self.guess("en", 0.7), locked: "fr") == nil)
    }

    @Test("change points are the utterance's pauses that leave 3 s each side, longest first; none in an utterance under 6 s")
    func changePoints() {
        let rate = 1000, window = 10
        var samples = [Float](repeating: 0.5, count: 10_000)
        for index in 3_800..<4_000 { samples[index] = 0 }  // 0.2 s pause at 3.8 s
        for index in 5_100..<5_400 { samples[index] = 0 }  // 0.3 s pause at 5.1 s
        for index in 500..<1_500 { samples[index] = 0 }  // too near the start
        #expect(SegmentLanguages.changePoints(samples[...], sampleRate: rate, windowSamples: window) == [5_250, 3_900])
        #expect(SegmentLanguages.changePoints(samples[0..<5_000], sampleRate: rate, windowSamples: window) == [])
    }

    @Test("the recording's language is the one with the most speech time; segments keep a language only where it is not that one")
    func mainLanguage() {
        let segments = [TranscriptSegment(text: "Bonjour", startSeconds: 0, endSeconds: 3.6),
                        TranscriptSegment(text: "Good morning", startSeconds: 4, endSeconds: 9.6, language: "en")]
        let main = SegmentLanguages.mainLanguage(segments, recordingLanguage: "fr")
        #expect(main.language == "en-US")  // stored as a locked English is: the fallback's region
        #expect(main.segments.map(\.language) == ["fr", nil])
        let same = SegmentLanguages.mainLanguage([segments[0]], recordingLanguage: "en-US")
        #expect(same.language == "en-US")
        #expect(same.segments.map(\.language) == [nil])
    }

    @Test("the language is named where it changes: the first segment when it is not the recording's, then each change, back to the main one too; none in a one-language recording")
    func languageChanges() {
        let segments = [TranscriptSegment(text: "Good morning", startSeconds: 0, endSeconds: 2),
                        TranscriptSegment(text: "Guten Morgen", startSeconds: 2, endSeconds: 4, language: "de"),
                        TranscriptSegment(text: "Heute", startSeconds: 4, endSeconds: 5, language: "de"),
                        TranscriptSegment(text: "Thanks", startSeconds: 5, endSeconds: 6)]
        #expect(SegmentLanguages.changes(segments, recordingLanguage: "en-US") == [nil, "de", nil, "en-US"])
        #expect(SegmentLanguages.changes(Array(segments[1...]), recordingLanguage: "en-US") == ["de", nil, "en-US"])
        #expect(SegmentLanguages.changes([segments[0], segments[3]], recordingLanguage: "en-US") == [nil, nil])
        let english = TranscriptSegment(text: "Hi", startSeconds: 0, endSeconds: 1, language: "en")
        #expect(SegmentLanguages.changes([english], recordingLanguage: "en-US") == [nil])
    }

    @Test("short clip under auto: the library's recent language; with none, the guess and a note; a longer recording or a named language unchanged")
    func shortClip() {
        let malay = LanguageGuess(probabilities: ["ms": 0.45, "de": 0.2])
        var withRecent = LanguageLock(choice: .automatic, recent: "de")
        #expect(withRecent.identified(malay, recordingSpeechSeconds: 1.6) == nil)
        #expect(withRecent.storedLanguage == "de")
        var alone = LanguageLock(choice: .automatic)
        #expect(alone.identified(malay, recordingSpeechSeconds: 1.6)
                == "note: only 1.6 s of speech, too little to be sure of its language: it is taken as Malay (ms, 45%); --language names it")
        #expect(alone.storedLanguage == "ms")
        var long = LanguageLock(choice: .automatic, recent: "de")
        #expect(long.identified(malay, recordingSpeechSeconds: 3.5) == nil)
        #expect(long.storedLanguage == "ms")
        var named = LanguageLock(choice: .named("en-US"), recent: "de")
        #expect(named.identified(malay, recordingSpeechSeconds: 1.6) == nil)
        #expect(named.storedLanguage == "en-US")
    }

    @Test("the library's recent language: most common of the 10 newest, ties to the newest; nil for none")
    func recentLanguage() {
        func recording(_ id: String, _ language: String, _ day: Double) -> Recording {
            Recording(id: id, name: id, createdAt: Date(timeIntervalSince1970: day * 86_400), durationSeconds: 1, language: language,
                      audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        }
        #expect(RecentLanguage.of([]) == nil)
        #expect(RecentLanguage.of([recording("a", "en-US", 1), recording("b", "de", 2), recording("c", "de-DE", 3)]) == "de")
        #expect(RecentLanguage.of([recording("a", "en-US", 1), recording("b", "de", 2)]) == "de")
        let old = (0..<20).map { recording("o\($0)", "fr", Double($0)) }
        let new = (0..<10).map { recording("n\($0)", "es", 100 + Double($0)) }
        #expect(RecentLanguage.of(old + new) == "es")
    }

    @Test("an invented phrase is dropped only when it is the whole text and Whisper was unsure of it",
          arguments: [
              ("Thank you for watching.", Float(-0.8), Float(0.1), true),
              ("Thank you for watching!", Float(-0.2), Float(0.5), true),
              ("Thank you for watching.", Float(-0.2), Float(0.1), false),
              ("Thank you for watching the budget.", Float(-0.9), Float(0.9), false),
              ("Untertitel im Auftrag des ZDF", Float(-0.7), Float(0), true),
              ("Subtitles by the Amara.org community", Float(-0.6), Float(0), true),
          ])
    func inventedPhrases(text: String, logProbability: Float, noSpeech: Float, dropped: Bool) {
        #expect(InventedPhrases.isInvented(text, meanLogProbability: logProbability, noSpeechProbability: noSpeech) == dropped)
    }

    @Test("a segment's language survives the sanitizer in its usual case, and one not shaped like a tag is dropped")
    func sanitizedLanguage() throws {
        let kept = try #require(SegmentSanitizer.cleaned(TranscriptSegment(text: "Hallo", startSeconds: 0, endSeconds: 1, language: "DE")))
        #expect(kept.language == "de")
        let dropped = try #require(SegmentSanitizer.cleaned(TranscriptSegment(text: "Hallo", startSeconds: 0, endSeconds: 1, language: "not a tag")))
        #expect(dropped.language == nil)
    }
}
