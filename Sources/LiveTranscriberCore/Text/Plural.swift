import Foundation

/// Counted nouns in English, the one plural rule every message uses.
public enum Plural {
    /// "1 segment", "0 segments", "3 segments"; `plural` for irregular nouns ("1 match", "2 matches").
    public static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }
}
