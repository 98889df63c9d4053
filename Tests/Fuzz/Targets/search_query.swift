import Foundation
@testable import LiveTranscriberCore
@testable import LiveTranscriberStore

/// Any search text (the input, as UTF-8 with invalid bytes replaced): parsing never traps, and
/// the index answers every query without an SQLite error (no FTS5 syntax can leak from the text).
private let index: LibraryIndex = {
    let index = try! LibraryIndex(inMemory: ())
    let texts = ["he was not an ill disposed young man", "Café multi-agent AT&T 悬空 meeting", "the budget of the \"year\" -- NOT near"]
    for (number, text) in texts.enumerated() {
        let recording = Recording(id: "20260101-00000\(number)-abcd", name: "fuzz \(number)", createdAt: Date(timeIntervalSince1970: 0),
                                  durationSeconds: 2, language: "en-US",
                                  audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        try! index.upsert(recording, segments: [TranscriptSegment(text: text, startSeconds: 0, endSeconds: 2)])
    }
    return index
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchQuery(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let query = SearchQuery(text)
    fuzzCheck(query.terms.count <= SearchQuery.maximumWords, "more terms than words allowed")
    for term in query.terms {
        fuzzCheck(!term.tokens.isEmpty && term.tokens.allSatisfy { !$0.isEmpty }, "an empty token in \(term)")
        _ = FTS5Pattern.phrase(term)
    }
    do {
        _ = try index.search(query, limit: 5, offset: 0, placesPerRecording: 3)
    } catch {
        fuzzCheck(false, "search for \(text.debugDescription) failed: \(error)")
    }
    return 0
}
