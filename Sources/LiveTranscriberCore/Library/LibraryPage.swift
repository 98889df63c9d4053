import Foundation

/// Where a page of a list (recordings, search results) sits, for a front end's paging controls.
public struct LibraryPage: Sendable, Equatable, Codable {
    /// The largest page a front end may ask for.
    public static let maximumLimit = 200
    /// The page size when none is asked for.
    public static let defaultLimit = 20

    /// Items skipped before this page.
    public var offset: Int
    /// Items asked for.
    public var limit: Int
    /// Items on this page (at most `limit`).
    public var count: Int
    /// The offset of the next page; nil when this page was not full (nothing can follow).
    public var next: Int?
    /// The offset of the page before; nil on the first page.
    public var previous: Int?
    /// "1–20", "21–27", or "" for an empty page: the items shown, counted from 1.
    public var label: String

    /// The page at `offset` of size `limit` that held `count` items.
    public init(offset: Int, limit: Int, count: Int) {
        self.offset = offset
        self.limit = limit
        self.count = count
        next = count >= limit ? offset + limit : nil
        previous = offset > 0 ? max(0, offset - limit) : nil
        label = count == 0 ? "" : "\(offset + 1)\u{2013}\(offset + count)"
    }

    /// The offset and limit a front end asked for as text (a query's `offset` and `limit`): absent
    /// ones are 0 and `defaultLimit`. Throws `LibraryError.invalid` for a value that is not a
    /// whole number, a negative offset, or a limit outside 1…`maximumLimit`.
    public static func requested(offset: String?, limit: String?) throws -> (offset: Int, limit: Int) {
        var result = (offset: 0, limit: defaultLimit)
        if let offset {
            guard let value = Int(offset), value >= 0 else { throw LibraryError.invalid("offset must be 0 or a positive whole number") }
            result.offset = value
        }
        if let limit {
            guard let value = Int(limit), (1...maximumLimit).contains(value) else {
                throw LibraryError.invalid("limit must be a whole number from 1 to \(maximumLimit)")
            }
            result.limit = value
        }
        return result
    }
}
