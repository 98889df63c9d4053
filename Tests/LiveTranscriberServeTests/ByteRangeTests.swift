import LiveTranscriberCore
import LiveTranscriberServe
import Testing

@Suite("Byte ranges")
struct ByteRangeTests {
    @Test("a Range header names the first, a middle and the last byte, a tail, or everything from a byte", arguments: [
        ("bytes=0-0", ByteRange.part(first: 0, last: 0)),
        ("bytes=500-599", .part(first: 500, last: 599)),
        ("bytes=999-999", .part(first: 999, last: 999)),
        ("bytes=-1", .part(first: 999, last: 999)),
        ("bytes=-5000", .part(first: 0, last: 999)),
        ("bytes=900-", .part(first: 900, last: 999)),
        ("bytes=900-5000", .part(first: 900, last: 999)),
        ("BYTES=10-19", .part(first: 10, last: 19)),
    ])
    func parts(header: String, expected: ByteRange) {
        #expect(ByteRange.parse(header, length: 1000) == expected)
    }

    @Test("a range starting at or past the end, or an empty tail, cannot be served", arguments: [
        "bytes=1000-", "bytes=1000-1000", "bytes=5000-6000", "bytes=-0",
    ])
    func unsatisfiable(header: String) {
        #expect(ByteRange.parse(header, length: 1000) == .unsatisfiable)
        #expect(ByteRange.parse(header, length: 1000).contentRange(length: 1000) == "bytes */1000")
    }

    @Test("no header, a malformed one, another unit or several ranges get the whole file", arguments: [
        nil, "bytes=", "bytes=a-b", "bytes=5-2", "items=0-1", "bytes=0-1,5-6", "bytes=--1", "bytes=1",
    ] as [String?])
    func whole(header: String?) {
        #expect(ByteRange.parse(header, length: 1000) == .whole)
    }

    @Test("in an empty file every range is unsatisfiable")
    func emptyFile() {
        #expect(ByteRange.parse("bytes=0-0", length: 0) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-1", length: 0) == .unsatisfiable)
    }

    @Test("Content-Range of a part")
    func contentRange() {
        #expect(ByteRange.part(first: 0, last: 0).contentRange(length: 95_792) == "bytes 0-0/95792")
        #expect(ByteRange.whole.contentRange(length: 10) == nil)
    }
}
