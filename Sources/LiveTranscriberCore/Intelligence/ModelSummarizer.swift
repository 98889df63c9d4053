import Foundation

/// The two-pass summary with a language model: semantic notes from the transcript, one sentence from
/// the notes, then 3 to 5 tags from the notes.
///
/// 1. The expected output language is inferred from the transcript's script, the recording language
///    as a hint (`OutputLanguage.infer`).
/// 2. A transcript longer than `characterBudget` is cut into chunks at segment boundaries; each chunk
///    gets its own notes request (2 to 4 notes, temperature 0.2, at most 180 tokens). The notes of
///    all chunks are merged in order with duplicates removed; when the merged notes are themselves
///    over budget they are condensed by another notes pass over them (at most 3 rounds).
/// 3. The summary request sees the notes only (one sentence, temperature 0.2, at most 140 tokens).
///    An answer whose script does not fit the expected language is retried once with an extra
///    instruction; the retry's answer is kept whatever its language.
/// 4. The tags request asks for 3 to 5 comma-separated tags from the notes (temperature 0.2, at most
///    60 tokens); when the answer yields no usable tag, tags are extracted from the notes offline.
///
/// Every request fences its untrusted text with a fresh `PromptFence` nonce.
///
/// ```swift
/// let summarizer = ModelSummarizer(model: OpenAICompatibleChatModel(...))
/// let result = try summarizer.summarize(segments: segments, languageHint: recording.language)
/// ```
public struct ModelSummarizer: Summarizer {
    public var model: any LanguageModel
    /// Characters of transcript per notes request; about a quarter of the model's context in tokens
    /// times 4 is a safe start for English. Default 12,000.
    public var characterBudget: Int
    /// Makes fence nonces; tests inject a fixed one.
    public var makeNonce: @Sendable () -> String

    public init(model: any LanguageModel, characterBudget: Int = 12_000, makeNonce: @escaping @Sendable () -> String = PromptFence.randomNonce) {
        self.model = model
        self.characterBudget = characterBudget
        self.makeNonce = makeNonce
    }

    /// Summary, tags and notes of `segments`; an empty transcript gives an empty summary and no request.
    ///
    /// - Throws: `SummaryError.emptyAnswer` when the model returns no notes or no summary; the
    ///   model's own errors unchanged.
    public func summarize(segments: [TranscriptSegment], languageHint: String) throws -> TranscriptSummary {
        let lines = SegmentSanitizer.sanitize(segments).map(\.text)
        let language = OutputLanguage.infer(from: lines.joined(separator: "\n"), hint: languageHint)
        guard !lines.isEmpty else {
            return TranscriptSummary(summary: "", tags: [], language: language, engine: "model")
        }
        var notes = try extractNotes(lines, language: language, hint: languageHint)
        var rounds = 0
        while notes.joined(separator: "\n").count > characterBudget, rounds < 3 {
            notes = try extractNotes(notes, language: language, hint: languageHint)
            rounds += 1
        }
        guard !notes.isEmpty else { throw SummaryError.emptyAnswer(step: "semantic notes") }

        var summary = try writeSummary(notes, language: language, hint: languageHint, retry: false)
        if !language.accepts(summary) {
            summary = try writeSummary(notes, language: language, hint: languageHint, retry: true)
        }
        guard !summary.isEmpty else { throw SummaryError.emptyAnswer(step: "summary") }

        let tagsAnswer = try model.complete(
            system: SummaryPrompts.tagsSystem,
            prompt: SummaryPrompts.tagsPrompt(notes: notes, language: language, fence: fence("notes")),
            temperature: SummaryPrompts.tagsSettings.temperature, maxTokens: SummaryPrompts.tagsSettings.maxTokens)
        var tags = Self.parseTags(tagsAnswer)
        if tags.isEmpty { tags = KeywordExtractor.tags(from: notes, count: 5) }
        return TranscriptSummary(summary: summary, tags: tags, notes: notes, language: language, engine: "model")
    }

    private func extractNotes(_ lines: [String], language: OutputLanguage, hint: String) throws -> [String] {
        let chunks = TranscriptChunker.chunks(lines, budget: characterBudget)
        var notes: [String] = []
        var seen = Set<String>()
        for (index, chunk) in chunks.enumerated() {
            let prompt = SummaryPrompts.notesPrompt(
                transcript: chunk, language: language, hint: hint, fence: fence("transcript"),
                part: chunks.count > 1 ? (index + 1, chunks.count) : nil)
            let answer = try model.complete(
                system: SummaryPrompts.notesSystem, prompt: prompt,
                temperature: SummaryPrompts.notesSettings.temperature, maxTokens: SummaryPrompts.notesSettings.maxTokens)
            for note in Self.parseNotes(answer) where seen.insert(note.lowercased()).inserted {
                notes.append(note)
            }
        }
        return notes
    }

    private func writeSummary(_ notes: [String], language: OutputLanguage, hint: String, retry: Bool) throws -> String {
        let prompt = SummaryPrompts.summaryPrompt(
            notes: notes, language: language, hint: hint, fence: fence("notes"), retryAfterWrongLanguage: retry)
        let answer = try model.complete(
            system: SummaryPrompts.summarySystem, prompt: prompt,
            temperature: SummaryPrompts.summarySettings.temperature, maxTokens: SummaryPrompts.summarySettings.maxTokens)
        return Self.cleanSummary(answer)
    }

    private func fence(_ label: String) -> PromptFence { PromptFence(label: label, nonce: makeNonce()) }

    // MARK: - Reading answers

    /// The notes in a notes answer: one per line, bullets and numbering removed, at most 4.
    public static func parseNotes(_ answer: String) -> [String] {
        let notes = answer.split(whereSeparator: { $0.isNewline })
            .map { stripListMarker(String($0)) }
            .filter { !$0.isEmpty && !isLabel($0) }
        return Array(notes.prefix(4))
    }

    /// The summary answer as one line: labels ("Summary:"), quotes and line breaks removed.
    public static func cleanSummary(_ answer: String) -> String {
        var text = answer.split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        for label in ["Summary:", "Final summary:", "摘要：", "总结：", "要約："] where text.lowercased().hasPrefix(label.lowercased()) {
            text = String(text.dropFirst(label.count)).trimmingCharacters(in: .whitespaces)
        }
        let quotes: [(Character, Character)] = [("\"", "\""), ("“", "”"), ("「", "」"), ("'", "'")]
        for (open, close) in quotes where text.count >= 2 && text.first == open && text.last == close {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return text
    }

    /// The tags in a tags answer: split on commas (also `、`, `，`, `;`, new lines), `#` and quotes
    /// removed, lower-cased, at most 40 characters each, without duplicates, at most 5.
    public static func parseTags(_ answer: String) -> [String] {
        var tags: [String] = []
        for raw in answer.split(whereSeparator: { ",，、;；\n".contains($0) || $0.isNewline }) {
            var tag = stripListMarker(String(raw))
            tag = tag.trimmingCharacters(in: CharacterSet(charactersIn: "#\"'“”`.。 ")).lowercased()
            if tag.lowercased().hasPrefix("tags:") { tag = String(tag.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
            guard !tag.isEmpty, tag.count <= 40, !tags.contains(tag) else { continue }
            tags.append(tag)
        }
        return Array(tags.prefix(5))
    }

    static func stripListMarker(_ line: String) -> String {
        var text = Substring(line.trimmingCharacters(in: .whitespaces))
        if let first = text.first, "-*•·–—".contains(first) {
            text = text.dropFirst()
        } else {
            let digits = text.prefix(while: { $0.isASCII && $0.isNumber })
            let after = text.dropFirst(digits.count)
            if !digits.isEmpty, let marker = after.first, ".)、．:".contains(marker) {
                text = after.dropFirst()
            }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private static func isLabel(_ line: String) -> Bool {
        (line.hasSuffix(":") || line.hasSuffix("：")) && line.count <= 24
    }
}

/// Why a model summary failed.
public enum SummaryError: Error, Equatable, CustomStringConvertible {
    /// The model answered with nothing usable at `step`.
    case emptyAnswer(step: String)

    public var description: String {
        switch self {
        case .emptyAnswer(let step):
            return "the language model returned no usable \(step); try again or use '--engine offline'."
        }
    }
}
