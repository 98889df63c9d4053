import Foundation

/// Words the speech recognizer should expect (names, jargon): `--vocabulary "Dashwood, Norland"`,
/// `LIVETRANSCRIBER_VOCABULARY`, or the library's `vocabulary.txt` (`LibraryLayout.vocabulary`).
///
/// Whisper gets them as its initial prompt (`prompt`), as if the audio followed text that used
/// them; that makes their spelling likely without forcing it. The prompt is bounded
/// (`bounded(maxTokens:count:)`, `maxPromptTokens`), cut at a term boundary.
public struct Vocabulary: Sendable, Equatable, Hashable, Codable {
    /// The terms in the order given, without blanks or repeats (compared without case).
    public private(set) var terms: [String]

    /// The environment variable that gives the vocabulary when no `--vocabulary` is given.
    public static let environmentVariable = "LIVETRANSCRIBER_VOCABULARY"

    /// The most prompt tokens the vocabulary may take: 100, under half of the 224 Whisper allows
    /// for a prompt, so a long list cannot crowd out the audio's own text; about 30 to 50 names.
    public static let maxPromptTokens = 100

    /// - Parameter terms: cleaned as a name made from outside text is (`RecordingName.cleaned`:
    ///   terminal escape sequences removed, other control and invisible characters made spaces,
    ///   white space collapsed, at most 200 characters), then blanks and repeats dropped. The terms
    ///   reach the recognizer's prompt, `show` and the metadata, so none may hide what it is.
    public init(_ terms: [String] = []) {
        var seen = Set<String>()
        self.terms = terms.map { RecordingName.cleaned($0, fallback: "") }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// Terms separated by commas, semicolons or line breaks; blanks and repeats dropped, and in a
    /// file, lines starting with `#` are comments.
    public static func parse(_ text: String) -> Vocabulary {
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        return Vocabulary(lines.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == ";" }).map(String.init) })
    }

    /// True when there are no terms.
    public var isEmpty: Bool { terms.isEmpty }

    /// The text given to the recognizer as its prompt: the terms joined by ", " and ended as a
    /// sentence ("Dashwood, Norland."), "" for none. Ended with a full stop, the prompt reads as text
    /// that is over: without one, Whisper base took espeak-ng's "Elinor Dashwood walked to Norland
    /// Park" for the prompt's continuation and wrote only "the Norland Park".
    public var prompt: String {
        guard let last = terms.last?.last else { return "" }
        let list = terms.joined(separator: ", ")
        return ".!?".contains(last) ? list : list + "."
    }

    /// Where a recording's vocabulary came from.
    public enum Source: String, Sendable, Equatable {
        case option, environment, libraryFile, none
    }

    /// The one precedence rule: `--vocabulary` over `LIVETRANSCRIBER_VOCABULARY` over the library's
    /// file. A source that is given counts even when empty, so `--vocabulary ""` turns the others
    /// off; a missing file or unset variable does not.
    /// - Parameters:
    ///   - option: `--vocabulary`'s value, nil when not given.
    ///   - environment: the variable's value, nil when unset.
    ///   - libraryFile: the library file's text, nil when there is no such file.
    public static func chosen(option: String?, environment: String?, libraryFile: String?) -> (vocabulary: Vocabulary, source: Source) {
        if let option { return (parse(option), .option) }
        if let environment { return (parse(environment), .environment) }
        if let libraryFile { return (parse(libraryFile), .libraryFile) }
        return (Vocabulary(), .none)
    }

    /// The longest leading run of terms whose prompt takes at most `maxTokens` tokens by `count`
    /// (the recognizer's tokenizer): terms are dropped whole, from the first that does not fit.
    public func bounded(maxTokens: Int = maxPromptTokens, count: (String) -> Int) -> Vocabulary {
        var kept: [String] = []
        for term in terms {
            guard count(Vocabulary(kept + [term]).prompt) <= maxTokens else { break }
            kept.append(term)
        }
        return Vocabulary(kept)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(terms)
    }
}
