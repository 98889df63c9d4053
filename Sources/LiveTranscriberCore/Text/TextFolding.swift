import Foundation

/// The one way text is folded for comparison: search (query, index and snippet marks) and tag identity.
///
/// Search folding (`searchKey`) makes a letter match the plain form a user would type for it:
/// 1. compatibility forms are unified (NFKC: "ﬁ" → "fi", full-width "ＡＢＣ" → "ABC", "²" → "2");
/// 2. case is folded fully, so "ß" and "ẞ" are "ss" ("Straße" = "STRASSE" = "strasse");
/// 3. diacritics are removed ("Café" → "cafe", "Łódź" → "lodz");
/// 4. letters that are not a base letter plus a mark, but that users write plainly, are spelled
///    out: æ → ae, œ → oe, ø → o, đ/ð → d, þ → th, ı → i, ħ → h, ŧ → t, ŀ → l, ĸ → k, ſ → s.
///
/// Folding works one character (grapheme cluster) at a time, so a folded text can be mapped back
/// onto the original (`foldedCharacters`), and folding a whole text equals folding its characters.
///
/// ```swift
/// TextFolding.searchKey("Straße Planung")  // "strasse planung"
/// TextFolding.caseKey("FUSSBALL") == TextFolding.caseKey("Fußball")  // true
/// ```
public enum TextFolding {
    /// `text` folded for search: compatibility forms, case, diacritics and special letters (see above).
    /// - Complexity: O(n) in characters; ASCII takes a fast path.
    public static func searchKey(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text { result += searchKey(character) }
        return result
    }

    /// One character folded for search; may be several characters ("ß" → "ss") or none.
    public static func searchKey(_ character: Character) -> String {
        if let ascii = character.asciiValue {
            return (65...90).contains(ascii) ? String(UnicodeScalar(ascii + 32)) : String(character)
        }
        let compatible = String(character).precomposedStringWithCompatibilityMapping
        let folded = compatible.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        var spelled = ""
        for scalar in folded.unicodeScalars {
            if let plain = plainLetters[scalar] {
                spelled += plain
            } else if scalar.properties.generalCategory != .nonspacingMark {  // a mark left by a fold
                spelled.unicodeScalars.append(scalar)
            }
        }
        return spelled
    }

    /// The characters of `text` folded for search, each with the offset (in `Character`s) of the
    /// original character it came from; for marking matches of folded terms in the original text.
    public static func foldedCharacters(_ text: String) -> [(character: Character, source: Int)] {
        var result: [(character: Character, source: Int)] = []
        for (offset, character) in text.enumerated() {
            for folded in searchKey(character) { result.append((folded, offset)) }
        }
        return result
    }

    /// `text` with case folded only (accents kept): the identity of a tag. "Fußball", "FUSSBALL"
    /// and "fussball" are one tag; "Café" and "Cafe" are two.
    public static func caseKey(_ text: some StringProtocol) -> String {
        String(text).precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil).lowercased()
    }

    /// Letters without a decomposition that users expect to match a plain spelling (lower case,
    /// since they are looked up after case folding).
    static let plainLetters: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h",
        "ŧ": "t", "ŀ": "l", "ł": "l", "ĸ": "k", "ſ": "s", "ß": "ss", "ǥ": "g", "ƀ": "b", "ɨ": "i",
    ]
}
