import Foundation

/// Trims text for small surfaces, keeping the newest part.
///
/// Lengths count user-visible characters: Swift `Character`s, i.e. extended grapheme clusters, so a
/// cut never splits an emoji, a flag, a skin-tone sequence or a letter with its combining accent.
/// A cut is marked with "…" at the front (or at the end for `prefix`), and the marker counts
/// toward the limit.
public enum PresentationText {
    /// The mark that replaces what a cut removed.
    public static let ellipsis: Character = "…"

    /// The newest part of `text`, at most `maxCharacters` characters including the leading "…".
    ///
    /// Leading and trailing whitespace is removed first, and again after a cut, so the text never
    /// starts with "… " when the cut fell between words.
    /// - Parameters:
    ///   - text: any text, newest at the end.
    ///   - maxCharacters: the limit in grapheme clusters; 0 or less gives "".
    /// - Returns: `text` unchanged (trimmed) when it fits, else "…" and its last characters.
    /// - Complexity: O(n) in characters of `text`.
    public static func suffix(_ text: String, maxCharacters: Int) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard maxCharacters > 0 else { return "" }
        guard trimmed.count > maxCharacters else { return trimmed }
        guard maxCharacters > 1 else { return String(ellipsis) }
        let kept = trimmed.suffix(maxCharacters - 1)
        let tail = kept.drop(while: { $0.isWhitespace || $0.isNewline })
        return String(ellipsis) + tail
    }

    /// The oldest part of `text`, at most `maxCharacters` characters including a trailing "…".
    ///
    /// For names and titles, whose beginning says most.
    public static func prefix(_ text: String, maxCharacters: Int) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard maxCharacters > 0 else { return "" }
        guard trimmed.count > maxCharacters else { return trimmed }
        guard maxCharacters > 1 else { return String(ellipsis) }
        var head = Substring(trimmed.prefix(maxCharacters - 1))
        while let last = head.last, last.isWhitespace || last.isNewline { head = head.dropLast() }
        return head + String(ellipsis)
    }

    /// The newest lines of `text`: at most `maxLines` non-empty lines, then at most `maxCharacters`.
    ///
    /// - Parameters:
    ///   - text: lines separated by any newline ("\n", "\r\n", U+2028 …), newest last.
    ///   - maxLines: how many lines to keep; 0 or less gives "".
    ///   - maxCharacters: the limit in grapheme clusters for the kept lines joined with "\n".
    /// - Returns: the kept lines joined with "\n", cut at the front with "…" if still too long.
    public static func trailingLines(_ text: String, maxLines: Int, maxCharacters: Int) -> String {
        guard maxLines > 0 else { return "" }
        let lines = text.split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let kept = lines.suffix(maxLines)
        let cutLines = kept.count < lines.count
        let joined = kept.joined(separator: "\n")
        let result = suffix(joined, maxCharacters: maxCharacters)
        if cutLines, result == joined, !result.isEmpty, maxCharacters > result.count {
            // Whole lines were dropped: say so the same way.
            return String(ellipsis) + result
        }
        return result
    }

    /// The newest final lines of a transcript, for the content state: each segment's text
    /// trimmed, empty ones skipped, joined with "\n", then cut to `maxCharacters`.
    ///
    /// Walks back from the newest segment and stops once the limit is passed, so the cost does
    /// not grow with the length of the recording.
    /// - Complexity: O(k) in the characters kept, not in all segments.
    public static func transcriptSuffix(_ finals: [TranscriptSegment], maxCharacters: Int) -> String {
        guard maxCharacters > 0 else { return "" }
        var lines: [String] = []
        var count = 0
        for segment in finals.reversed() {
            let line = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            lines.append(line)
            count += line.count + 1
            if count > maxCharacters { break }
        }
        return suffix(lines.reversed().joined(separator: "\n"), maxCharacters: maxCharacters)
    }
}
