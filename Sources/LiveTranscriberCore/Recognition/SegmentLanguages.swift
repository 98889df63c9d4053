import Foundation

/// Language is a property of each stretch of speech, not only of the recording: the rule a file's
/// pack of utterances (`UtterancePacking`) follows under `--language auto`. `import`,
/// `retranscribe`, `record`'s second pass, `serve`'s job and `/v1/audio/transcriptions` all
/// decode files through `UtteranceRecognizer`, so the rule is here once.
///
/// A recording's language is locked on its first speech (`LanguageLock`). Whisper decoding speech
/// of another language in the locked one translates it, spells it out phonetically ("Hoytabash
/// bhachanvi bin Halshalt") or drops it. So, for each pack:
/// 1. The pack is decoded in the locked language. Its encoder output then gives the pack's
///    language probabilities for one decoder step (`UtteranceDecoder.languageOfLastDecode`).
/// 2. When the locked language has less than `switchProbability` there (`isInDoubt`), each of
///    the pack's utterances of at least `minimumSeconds` is identified on its own audio.
/// 3. Each utterance gets a language (`utteranceLanguages`); the runs of utterances not in the
///    locked language (`foreignRuns`) are decoded again, each in its own language, and their
///    segments keep it (`TranscriptSegment.language`).
///
/// The recording's language is then the main one (`mainLanguage`): the language with the most
/// speech time. A named `--language` is not subject to this: every stretch is decoded in it.
public enum SegmentLanguages {
    /// Seconds of speech below which an identification is not trusted: 3. Whisper base gives
    /// espeak-ng's "Guten Morgen." alone (0.8 s) 0.45 English, and "Danke schön, bis morgen."
    /// (1.6 s) Malay; the whole 6 s German sentence is German at 0.9 and above.
    public static let minimumSeconds = 3.0
    /// How probable a language must be to be trusted, for a pack to be in its locked language and for an
    /// utterance to leave it: `LanguageLock.warningProbability` (0.8).
    public static let switchProbability = LanguageLock.warningProbability

    /// True when `guess`, a pack's language probabilities, gives the locked language (a BCP 47
    /// tag) less than `switchProbability`: its utterances are then identified one by one. A pack
    /// with no guess (a one-language model) is never in doubt.
    public static func isInDoubt(_ guess: LanguageGuess?, locked: String) -> Bool {
        guard let guess, !guess.probabilities.isEmpty else { return false }
        return (guess.probabilities[LanguageTag.primarySubtag(locked)] ?? 0) < switchProbability
    }

    /// The language (primary subtag) of each of a pack's utterances, in order.
    /// - Parameters:
    ///   - guesses: each utterance's identification; nil where it was not identified (shorter than
    ///     `minimumSeconds`).
    ///   - locked: the recording's locked language (a BCP 47 tag).
    /// - Returns: an utterance identified at `switchProbability` or more has that language; any other
    ///   takes the language of the utterance before it, or for the pack's first ones, of the first
    ///   identified after them, or else the locked language.
    public static func utteranceLanguages(_ guesses: [LanguageGuess?], locked: String) -> [String] {
        let known: [String?] = guesses.map { guess in
            guard let top = guess?.top, top.probability >= switchProbability else { return nil }
            return LanguageTag.primarySubtag(top.language)
        }
        let lockedCode = LanguageTag.primarySubtag(locked)
        var languages: [String] = []
        for (index, language) in known.enumerated() {
            languages.append(language ?? languages.last ?? known[index...].compactMap { $0 }.first ?? lockedCode)
        }
        return languages
    }

    /// Where an utterance that is not clearly in one language may change language: its pauses that
    /// leave at least `minimumSeconds` on each side, longest first (each is tried in turn: both sides
    /// identified on their own). A speaker who goes from French to English after a short breath
    /// gives the voice activity detector one utterance, and Whisper's word times run on across the
    /// breath, so the audio's level is what finds it.
    ///
    /// A pause is a run of windows at least 20 dB below the utterance's loudest window; an
    /// utterance with none gets its quietest window.
    /// - Parameters:
    ///   - samples: the utterance's audio, mono.
    ///   - sampleRate: samples per second.
    ///   - windowSamples: the width of the windows compared (the voice activity detector's, 512 at 16 kHz).
    ///   - limit: how many points at most: 3.
    /// - Returns: the middle of each pause, as offsets from `samples`' first sample; longest pause
    ///   first, ties to the one nearest the middle. Empty when the utterance is shorter than twice
    ///   `minimumSeconds`.
    public static func changePoints(_ samples: ArraySlice<Float>, sampleRate: Int, windowSamples: Int, limit: Int = 3) -> [Int] {
        let side = Int(minimumSeconds * Double(sampleRate))
        guard windowSamples > 0, samples.count >= 2 * side + windowSamples else { return [] }
        let energies = stride(from: 0, to: samples.count - windowSamples + 1, by: windowSamples).map { start in
            samples[(samples.startIndex + start)..<(samples.startIndex + start + windowSamples)].reduce(Float(0)) { $0 + $1 * $1 }
        }
        let quiet = (energies.max() ?? 0) / 100
        var pauses: [(start: Int, end: Int)] = []  // in windows, end exclusive
        for (index, energy) in energies.enumerated() where energy <= quiet {
            if let last = pauses.last, last.end == index { pauses[pauses.count - 1].end = index + 1 } else { pauses.append((index, index + 1)) }
        }
        let middle = samples.count / 2
        func center(_ pause: (start: Int, end: Int)) -> Int { (pause.start + pause.end) * windowSamples / 2 }
        var points = pauses.filter { center($0) >= side && samples.count - center($0) >= side }
            .sorted { ($1.end - $1.start, abs(center($0) - middle)) < ($0.end - $0.start, abs(center($1) - middle)) }
            .prefix(limit).map(center)
        if points.isEmpty {
            let inner = energies.indices.filter { ($0 * windowSamples + windowSamples / 2) >= side
                && samples.count - ($0 * windowSamples + windowSamples / 2) >= side }
            if let quietest = inner.min(by: { energies[$0] < energies[$1] }) { points = [quietest * windowSamples + windowSamples / 2] }
        }
        return points
    }

    /// The languages of the two sides of an utterance split at a change point (`changePoints`),
    /// from their own identifications: a side identified at `switchProbability` or more has that
    /// language, any other side the locked one. Whisper base gives espeak-ng's French sentence
    /// alone (3.9 s) Thai at 17%, and the English after it English at 94%.
    /// - Returns: nil unless the two differ and a side not in the locked language is sure;
    ///   `confidence` is that side's probability (the higher of two), for choosing among change points.
    public static func sideLanguages(_ first: LanguageGuess?, _ second: LanguageGuess?, locked: String)
        -> (first: String, second: String, confidence: Double)? {
        let lockedCode = LanguageTag.primarySubtag(locked)
        func sure(_ guess: LanguageGuess?) -> (language: String, probability: Double)? {
            guard let top = guess?.top, top.probability >= switchProbability else { return nil }
            return (LanguageTag.primarySubtag(top.language), top.probability)
        }
        let sides = [sure(first), sure(second)]
        let languages = sides.map { $0?.language ?? lockedCode }
        guard languages[0] != languages[1] else { return nil }
        let confidence = sides.compactMap { $0 }.filter { $0.language != lockedCode }.map(\.probability).max()
        return confidence.map { (languages[0], languages[1], $0) }
    }

    /// The runs of consecutive utterances whose language (from `utteranceLanguages`) is not the
    /// locked one: each is decoded again, as one stretch, in its language.
    /// - Returns: ranges of utterance indices with their language (a primary subtag), in order.
    public static func foreignRuns(_ languages: [String], locked: String) -> [(utterances: Range<Int>, language: String)] {
        let lockedCode = LanguageTag.primarySubtag(locked)
        var runs: [(utterances: Range<Int>, language: String)] = []
        for (index, language) in languages.enumerated() where language != lockedCode {
            if let last = runs.last, last.language == language, last.utterances.upperBound == index {
                runs[runs.count - 1].utterances = last.utterances.lowerBound..<(index + 1)
            } else {
                runs.append((index..<(index + 1), language))
            }
        }
        return runs
    }

    /// The recording's language once its segments carry their own: the language with the most
    /// speech time (ties: the recording's), and the segments with `language` set only where it is
    /// not that one.
    /// - Parameters:
    ///   - segments: segments whose nil `language` means `recordingLanguage`.
    ///   - recordingLanguage: the language the file was locked in (a BCP 47 tag, "en-US").
    ///   - fallback: `LanguageLock.fallback`: a main language other than `recordingLanguage` is stored as
    ///     `LanguageLock.storedTag` gives it, so English found in a recording locked in French is "en-US", as when it is locked.
    public static func mainLanguage(_ segments: [TranscriptSegment], recordingLanguage: String, fallback: String = "en-US")
        -> (language: String, segments: [TranscriptSegment]) {
        var seconds: [String: Double] = [:]
        for segment in segments { seconds[segment.language ?? recordingLanguage, default: 0] += segment.durationSeconds }
        let own = seconds[recordingLanguage] ?? 0
        let main = seconds.filter { $0.value > own }.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }
            .map { LanguageLock.storedTag(detected: $0.key, fallback: fallback) }
            ?? recordingLanguage
        let relabelled = segments.map { segment in
            var segment = segment
            let language = segment.language ?? recordingLanguage
            segment.language = LanguageTag.primarySubtag(language) == LanguageTag.primarySubtag(main) ? nil : language
            return segment
        }
        return (main, relabelled)
    }

    /// The language to name before each segment where the spoken language changes (for `show` and
    /// the plain-text export): the segment's language (its own, else the recording's) when it
    /// differs from the one before it (for the first segment: from the recording's), else nil. A
    /// recording in one language names none.
    /// - Parameter recordingLanguage: the recording's language (a BCP 47 tag).
    /// - Returns: one entry per segment, in order: a tag, or nil.
    public static func changes(_ segments: [TranscriptSegment], recordingLanguage: String) -> [String?] {
        var previous = recordingLanguage
        return segments.map { segment in
            let language = segment.language ?? recordingLanguage
            defer { previous = language }
            return LanguageTag.sameLanguage(language, previous) ? nil : language
        }
    }
}
