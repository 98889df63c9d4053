import Foundation

/// A page of search results that only counts the results a filter keeps (the web page's tag
/// filter), so "Older" and "Newer" page through the kept results in rank order rather than
/// filtering each page of all results (which gave short or empty pages while more kept results
/// followed).
///
/// ```swift
/// let page = try FilteredSearchPage.results(offset: 20, limit: 20, keep: { $0.recording.tags.contains("work") }) { offset, limit in
///     try store.search(SearchRequest(query, limit: limit, offset: offset))
/// }
/// ```
public enum FilteredSearchPage {
    /// How many results are asked for at a time, at least.
    public static let smallestBatch = 100

    /// The `limit` kept results after the first `offset` kept ones, in the order `fetch` ranks
    /// them. `fetch(offset, limit)` returns a page of all results (fewer than `limit` at the end).
    /// - Complexity: `fetch` is called for batches of `max(smallestBatch, 2 × (offset + limit))`
    ///   results from the first, until the page is full or the results end.
    /// - Throws: what `fetch` throws.
    public static func results<Result>(offset: Int, limit: Int, keep: (Result) -> Bool,
                                       fetch: (_ offset: Int, _ limit: Int) throws -> [Result]) rethrows -> [Result] {
        guard limit > 0 else { return [] }
        let offset = max(0, offset)
        let batch = max(smallestBatch, 2 * min(offset + limit, Int.max / 4))
        var page: [Result] = []
        var skipped = 0
        var read = 0
        while page.count < limit {
            let results = try fetch(read, batch)
            for result in results where keep(result) {
                if skipped < offset {
                    skipped += 1
                } else if page.count < limit {
                    page.append(result)
                }
            }
            read += results.count
            if results.count < batch { break }
        }
        return page
    }
}
