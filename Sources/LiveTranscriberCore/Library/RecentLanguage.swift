import Foundation

/// The library's recent language: what a recording too short to identify is taken to be in
/// (`LanguageLock.recent`, the short-clip rule).
public enum RecentLanguage {
    /// How many of the newest recordings count: 10.
    public static let window = 10

    /// The most common language (primary subtag, "de") of the `window` newest of `recordings`
    /// (by `createdAt`), ties to the newest recording's; nil for an empty library.
    public static func of(_ recordings: [Recording]) -> String? {
        let newest = recordings.sorted { $0.createdAt > $1.createdAt }.prefix(window).map { LanguageTag.primarySubtag($0.language) }
            .filter { !$0.isEmpty }
        var counts: [String: Int] = [:]
        for language in newest { counts[language, default: 0] += 1 }
        guard let most = counts.values.max() else { return nil }
        return newest.first { counts[$0] == most }
    }
}
