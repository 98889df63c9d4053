import Foundation

/// Cuts a transcript into pieces that fit a model's context.
public enum TranscriptChunker {
    /// The transcript as chunks of at most `budget` characters, cut at segment boundaries.
    ///
    /// Each chunk is its segments' texts joined by newlines. A single segment longer than the budget
    /// is the only thing cut inside a segment: at the last space before the budget when there is one,
    /// else at the budget (grapheme clusters are never split).
    ///
    /// - Parameters:
    ///   - lines: The texts, in order (one per segment).
    ///   - budget: Characters (grapheme clusters) per chunk; values below 1 count as 1.
    /// - Returns: Chunks in order; empty when there is no text.
    /// - Complexity: O(n) in characters.
    public static func chunks(_ lines: [String], budget: Int) -> [String] {
        let budget = max(1, budget)
        var chunks: [String] = []
        var current = ""
        var currentCount = 0
        func flush() {
            if !current.isEmpty { chunks.append(current) }
            current = ""
            currentCount = 0
        }
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            for piece in split(trimmed, budget: budget) {
                let count = piece.count
                let needed = currentCount == 0 ? count : currentCount + 1 + count
                if needed > budget { flush() }
                current += current.isEmpty ? piece : "\n" + piece
                currentCount = currentCount == 0 ? count : currentCount + 1 + count
            }
        }
        flush()
        return chunks
    }

    /// `text` in pieces of at most `budget` characters, preferring to cut after a space.
    static func split(_ text: String, budget: Int) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while rest.count > budget {
            let limit = rest.index(rest.startIndex, offsetBy: budget)
            var cut = limit
            if let space = rest[..<limit].lastIndex(where: { $0.isWhitespace }), space > rest.startIndex {
                cut = space
            }
            let piece = rest[..<cut].trimmingCharacters(in: .whitespaces)
            if !piece.isEmpty { pieces.append(piece) }
            rest = rest[cut...].drop(while: { $0.isWhitespace })
        }
        if !rest.isEmpty { pieces.append(String(rest)) }
        return pieces
    }
}
