import Foundation
import LiveTranscriberCore

/// FTS5 MATCH expressions built from search terms, never from raw input.
///
/// A term is a quoted phrase of its folded tokens (quotes doubled), `*` after it when it is a
/// prefix: `"multi agent"*`. Tokens hold only letters, marks and digits (`SearchText`), so no
/// operator, column filter or bracket can reach FTS5.
enum FTS5Pattern {
    /// One term as an FTS5 phrase.
    static func phrase(_ term: SearchTerm) -> String {
        "\"" + term.tokens.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (term.isPrefix ? "*" : "")
    }

    /// Every term required.
    static func all(_ terms: [SearchTerm]) -> String {
        terms.map(phrase).joined(separator: " AND ")
    }

    /// Any of the terms.
    static func any(_ terms: [SearchTerm]) -> String {
        terms.map(phrase).joined(separator: " OR ")
    }

    /// Any of `some` but not every one of `every`: the partial matches that come after the full ones.
    static func partial(_ some: [SearchTerm], notAll every: [SearchTerm]) -> String {
        "(" + any(some) + ") NOT (" + all(every) + ")"
    }
}
