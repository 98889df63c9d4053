import Foundation
import LiveTranscriberCore

/// Column arithmetic for monospaced terminals: wide characters (CJK, most emoji) take two columns.
public enum TerminalText {
    /// Columns `character` takes: `CharacterWidth.columns(of:)`, the one width table (the core's; tested there).
    public static func columns(of character: Character) -> Int {
        CharacterWidth.columns(of: character)
    }

    /// Columns `text` takes.
    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` cut to at most `width` columns from the end (keeping the newest part, "…" in front).
    public static func suffix(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard columns(of: text) > width else { return text }
        var kept: [Character] = []
        var used = 1
        for character in text.reversed() {
            let needed = columns(of: character)
            if used + needed > width { break }
            kept.append(character)
            used += needed
        }
        while let last = kept.last, last.isWhitespace { kept.removeLast() }
        return String(PresentationText.ellipsis) + String(kept.reversed())
    }

    /// `text` cut to at most `width` columns from the start ("…" at the end).
    public static func prefix(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard columns(of: text) > width else { return text }
        var kept = ""
        var used = 1
        for character in text {
            let needed = columns(of: character)
            if used + needed > width { break }
            kept.append(character)
            used += needed
        }
        return kept + String(PresentationText.ellipsis)
    }

    /// `text` broken into rows of at most `width` columns, at spaces where possible; a word wider
    /// than a row is broken between characters (never inside one).
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var rows: [String] = []
        var row = ""
        var rowWidth = 0
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var word = String(word)
            var wordWidth = columns(of: word)
            if rowWidth > 0, rowWidth + 1 + wordWidth <= width {
                row += " " + word
                rowWidth += 1 + wordWidth
                continue
            }
            if rowWidth > 0 { rows.append(row) }
            row = ""
            rowWidth = 0
            while wordWidth > width {
                var piece = ""
                var pieceWidth = 0
                while let first = word.first, pieceWidth + columns(of: first) <= width {
                    piece.append(first)
                    pieceWidth += columns(of: first)
                    word.removeFirst()
                }
                if piece.isEmpty, let first = word.first {  // a character wider than the row
                    piece.append(first)
                    word.removeFirst()
                }
                rows.append(piece)
                wordWidth = columns(of: word)
            }
            row = word
            rowWidth = wordWidth
        }
        if rowWidth > 0 { rows.append(row) }
        return rows
    }
}
