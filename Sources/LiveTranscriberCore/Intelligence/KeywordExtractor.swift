import Foundation

/// Keyword tags by term frequency, with no model and no network.
///
/// Terms are found per script: words of Latin, Cyrillic, Greek, Hangul and other space-separated
/// scripts (at least 3 letters, not a number, not an English stop word or filler); runs of Han
/// characters between common function characters (的, 了, 是, 我…), as overlapping character
/// pairs (Chinese has no spaces and most words have two characters); Katakana runs of 2 or more.
/// Hiragana, punctuation, emoji and digits separate terms. English plurals ending in "s" count with
/// their singular when both occur.
public enum KeywordExtractor {
    /// The terms of `text`, in order, lower-cased.
    public static func terms(in text: String) -> [String] {
        var terms: [String] = []
        var word = ""
        var han = ""
        var katakana = ""
        func flushWord() {
            var candidate = word.trimmingCharacters(in: CharacterSet(charactersIn: "'’"))
            if candidate.hasSuffix("'s") || candidate.hasSuffix("’s") { candidate = String(candidate.dropLast(2)) }
            if candidate.count >= 3, !candidate.allSatisfy(\.isNumber), !englishStopWords.contains(candidate), !europeanStopWords.contains(candidate) {
                terms.append(candidate)
            }
            word = ""
        }
        func flushHan() {
            let run = Array(han)
            if run.count >= 2 {
                for index in 0..<(run.count - 1) { terms.append(String(run[index...index + 1])) }
            }
            han = ""
        }
        func flushKatakana() {
            if katakana.count >= 2 { terms.append(katakana) }
            katakana = ""
        }
        for character in text.lowercased() {
            let script = character.unicodeScalars.first.flatMap(WritingScript.of)
            if script == .han, !chineseFunctionCharacters.contains(character) {
                flushWord(); flushKatakana()
                han.append(character)
            } else if script == .kana, character.unicodeScalars.first.flatMap(TextScript.of) == .katakana {
                flushWord(); flushHan()
                katakana.append(character)
            } else if script != nil && script != .han && script != .kana || character.isNumber
                        || (character == "'" || character == "’") && !word.isEmpty {
                flushHan(); flushKatakana()
                word.append(character)
            } else {
                flushWord(); flushHan(); flushKatakana()
            }
        }
        flushWord(); flushHan(); flushKatakana()
        return terms
    }

    /// Up to `count` tags for `texts`: the most frequent terms, ties broken by first occurrence.
    ///
    /// Terms seen at least twice come first; when fewer than 3 are, terms seen once fill up to 3.
    /// Chinese pairs that overlap an already chosen pair by one character are skipped.
    public static func tags(from texts: [String], count: Int = 5) -> [String] {
        let ordered = texts.flatMap { terms(in: $0) }
        var frequency: [String: Int] = [:]
        var firstSeen: [String: Int] = [:]
        for (index, term) in ordered.enumerated() {
            frequency[term, default: 0] += 1
            if firstSeen[term] == nil { firstSeen[term] = index }
        }
        for (term, plural) in frequency where term.hasSuffix("s") && term.count > 3 {
            let singular = String(term.dropLast())
            if frequency[singular] != nil {
                frequency[singular, default: 0] += plural
                frequency[term] = nil
            }
        }
        let ranked = frequency.keys.sorted { lhs, rhs in
            if frequency[lhs]! != frequency[rhs]! { return frequency[lhs]! > frequency[rhs]! }
            return firstSeen[lhs]! < firstSeen[rhs]!
        }
        // A Han pair that shifts a chosen pair by one character ("工智" after "人工") is a cut
        // across two words, not a word: skip it.
        var picked: [String] = []
        func overlapsPicked(_ term: String) -> Bool {
            guard term.count == 2, term.unicodeScalars.allSatisfy({ WritingScript.of($0) == .han }) else { return false }
            return picked.contains { $0.count == 2 && ($0.last == term.first || $0.first == term.last) }
        }
        for term in ranked where frequency[term]! >= 2 && !overlapsPicked(term) { picked.append(term) }
        if picked.count < 3 {
            for term in ranked where frequency[term]! < 2 && !overlapsPicked(term) && picked.count < 3 { picked.append(term) }
        }
        return Array(picked.prefix(max(0, count)))
    }

    /// Characters that join Chinese content words (particles, pronouns, common verbs); they end a Han run.
    static let chineseFunctionCharacters: Set<Character> = Set(
        "的了是我你他她它们在和有这那不就也都吗呢啊吧个着么很还没把被给让从说得之嗯呃哦哈呀些")

    /// English stop words and speech fillers.
    static let englishStopWords: Set<String> = [
        "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one",
        "our", "out", "day", "get", "has", "him", "his", "how", "man", "new", "now", "old", "see", "two",
        "way", "who", "did", "its", "let", "put", "say", "she", "too", "use", "that", "with", "have", "this",
        "will", "your", "from", "they", "know", "want", "been", "good", "much", "some", "time", "very",
        "when", "come", "here", "just", "like", "long", "make", "many", "more", "only", "over", "such",
        "take", "than", "them", "well", "were", "what", "about", "after", "again", "also", "back", "because",
        "before", "being", "between", "both", "could", "does", "doing", "down", "during", "each", "even",
        "every", "first", "going", "gonna", "into", "itself", "last", "little", "most", "myself", "need",
        "next", "other", "ours", "right", "same", "should", "since", "still", "their", "theirs", "then",
        "there", "these", "thing", "things", "think", "those", "through", "under", "until", "upon", "which",
        "while", "whom", "whose", "why", "would", "yeah", "yes", "okay", "really", "actually", "basically",
        "maybe", "something", "anything", "everything", "nothing", "someone", "people", "said", "says",
        "kind", "sort", "lot", "lots", "got", "where", "where's", "it's", "i'm", "don't", "didn't", "doesn't",
        "can't", "won't", "that's", "there's", "we're", "they're", "you're", "i've", "we've", "i'll", "we'll",
        "let's", "isn't", "aren't", "wasn't", "um", "uh", "hmm", "erm", "mean", "sure", "wanna", "gotta",
        "ourselves", "yours", "herself", "himself", "themselves", "against", "above", "below", "off", "once",
        "own", "few", "nor", "may", "might", "must", "shall", "able", "across", "along", "already",
        "although", "always", "among", "another", "around", "away", "became", "become", "comes", "done",
        "either", "else", "enough", "ever", "far", "further", "given", "gives", "goes", "however", "indeed",
        "instead", "keep", "made", "makes", "never", "often", "perhaps", "quite", "rather", "seem", "seems",
        "several", "so", "soon", "thanks", "thank", "though", "together", "toward", "towards", "usually",
        "via", "whether", "within", "without", "yet", "one's", "look", "looks", "went", "tell", "told",
        "today", "tomorrow",
    ]

    /// The commonest German, French, Spanish and Italian function words of three letters or more
    /// (Whisper writes these languages; "und" is no topic).
    static let europeanStopWords: Set<String> = [
        "und", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "ist", "sind",
        "war", "nicht", "mit", "auf", "für", "von", "sie", "ich", "wir", "ihr", "auch", "aber", "oder", "wie",
        "was", "noch", "nur", "sich", "hat", "haben", "wird", "werden", "bei", "aus", "nach", "zum", "zur",
        "dann", "wenn", "als", "schon", "sehr", "hier", "dass", "doch", "mal", "jetzt", "kann", "einfach",
        "les", "une", "est", "pas", "que", "qui", "dans", "pour", "sur", "avec", "par", "plus", "sont", "mais",
        "nous", "vous", "ils", "elle", "elles", "cette", "ces", "son", "ses", "leur", "aux", "ont", "été", "fait",
        "los", "las", "una", "uno", "por", "para", "con", "del", "como", "pero", "más", "este", "esta", "esto",
        "muy", "también", "sus", "hay", "todo", "cuando", "porque",
        "che", "non", "per", "sono", "della", "delle", "degli", "alla", "nel", "nella", "anche", "come",
        "questo", "questa", "molto", "più",
    ]
}
