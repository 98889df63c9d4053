import Foundation

/// The offline summarizer: needs no network and no model, so `summarize` always works.
///
/// The summary is the transcript's highest scoring sentence: sentences come from each segment cut at
/// `.`, `!`, `?`, `。`, `！`, `？`, `…` and `;`; a sentence scores the sum of the transcript-wide
/// frequencies of its distinct terms (`KeywordExtractor.terms`) divided by the square root of their
/// number, so sentences dense in recurring terms win over long rambling ones. Ties go to the earlier
/// sentence; when no sentence has a term, the first sentence is used. A summary longer than
/// `maximumCharacters` is cut at a space and ends with `…`. Tags are `KeywordExtractor.tags`.
public struct ExtractiveSummarizer: Summarizer {
    /// Longest summary, in characters. Default 200.
    public var maximumCharacters: Int

    public init(maximumCharacters: Int = 200) {
        self.maximumCharacters = maximumCharacters
    }

    /// Summary and up to 5 tags of `segments`; never throws. Empty text gives an empty summary.
    /// - Complexity: O(n) in characters.
    public func summarize(segments: [TranscriptSegment], languageHint: String) -> TranscriptSummary {
        let texts = SegmentSanitizer.sanitize(segments).map(\.text)
        let language = OutputLanguage.infer(from: texts.joined(separator: "\n"), hint: languageHint)
        let sentences = texts.flatMap(Self.sentences(in:))
        var frequency: [String: Int] = [:]
        for term in texts.flatMap({ KeywordExtractor.terms(in: $0) }) { frequency[term, default: 0] += 1 }

        var best: (index: Int, score: Double)?
        for (index, sentence) in sentences.enumerated() {
            let distinct = Set(KeywordExtractor.terms(in: sentence))
            guard !distinct.isEmpty else { continue }
            let total = distinct.reduce(0) { $0 + (frequency[$1] ?? 0) }
            let score = Double(total) / Double(distinct.count).squareRoot()
            if best == nil || score > best!.score { best = (index, score) }
        }
        let chosen = sentences.isEmpty ? "" : sentences[best?.index ?? 0]
        return TranscriptSummary(
            summary: truncated(chosen), tags: KeywordExtractor.tags(from: texts, count: 5),
            language: language, engine: "offline")
    }

    /// The sentences of `text`, each keeping its closing punctuation, trimmed, none empty.
    static func sentences(in text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if ".!?。！？…;；".contains(character) {
                let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty, trimmed.contains(where: { $0.isLetter }) { sentences.append(trimmed) }
                else if !trimmed.isEmpty, let last = sentences.popLast() { sentences.append(last + trimmed) }
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { sentences.append(rest) }
        return sentences
    }

    func truncated(_ text: String) -> String {
        guard text.count > maximumCharacters, maximumCharacters > 1 else { return text }
        let limit = text.index(text.startIndex, offsetBy: maximumCharacters - 1)
        var cut = limit
        if !text[limit].isWhitespace, let space = text[..<limit].lastIndex(where: { $0.isWhitespace }), space > text.startIndex {
            cut = space
        }
        return text[..<cut].trimmingCharacters(in: .whitespaces) + "…"
    }
}
