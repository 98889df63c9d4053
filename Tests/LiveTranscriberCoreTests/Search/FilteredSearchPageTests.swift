import Foundation
import LiveTranscriberCore
import Testing

@Suite("Search pages through a filter")
struct FilteredSearchPageTests {
    /// 1,000 ranked results; every seventh is kept.
    let all = Array(0..<1_000)
    func keep(_ value: Int) -> Bool { value % 7 == 0 }

    func fetch(_ offset: Int, _ limit: Int) -> [Int] { Array(all.dropFirst(offset).prefix(limit)) }

    @Test("pages count only the kept results, in rank order, across batches of all results", arguments: [
        (0, 3, [0, 7, 14]), (3, 3, [21, 28, 35]), (20, 2, [140, 147]), (140, 5, [980, 987, 994]), (143, 5, []),
    ] as [(Int, Int, [Int])])
    func pages(offset: Int, limit: Int, expected: [Int]) {
        #expect(FilteredSearchPage.results(offset: offset, limit: limit, keep: keep, fetch: fetch) == expected)
    }

    @Test("batches start at the first result and stop when the page is full or the results end")
    func batches() {
        var asked: [[Int]] = []
        _ = FilteredSearchPage.results(offset: 20, limit: 2, keep: keep) { offset, limit in asked.append([offset, limit]); return fetch(offset, limit) }
        #expect(asked == [[0, 100], [100, 100]])  // the 21st and 22nd kept results are 140 and 147
        asked = []
        _ = FilteredSearchPage.results(offset: 0, limit: 10, keep: { _ in false }) { offset, limit in asked.append([offset, limit]); return fetch(offset, limit) }
        #expect(asked.count == 11 && asked.last == [1_000, 100])  // the last, short batch says the results ended
        #expect(FilteredSearchPage.results(offset: 0, limit: 0, keep: keep, fetch: fetch) == [])
    }
}
