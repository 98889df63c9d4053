import Foundation
import LiveTranscriberCore
import Testing

@Suite("Library pages")
struct LibraryPageTests {
    @Test("a full page has a next page; a later page has a previous one; the label counts from 1")
    func pages() {
        #expect(LibraryPage(offset: 0, limit: 20, count: 20) == LibraryPage(offset: 0, limit: 20, count: 20))
        let first = LibraryPage(offset: 0, limit: 20, count: 20)
        #expect(first.next == 20 && first.previous == nil && first.label == "1\u{2013}20")
        let last = LibraryPage(offset: 20, limit: 20, count: 7)
        #expect(last.next == nil && last.previous == 0 && last.label == "21\u{2013}27")
        let odd = LibraryPage(offset: 5, limit: 20, count: 0)
        #expect(odd.next == nil && odd.previous == 0 && odd.label == "")
    }

    @Test("offset and limit as a front end sends them", arguments: [
        (nil, nil, 0, 20), ("40", "10", 40, 10), ("0", "200", 0, 200),
    ] as [(String?, String?, Int, Int)])
    func requested(offset: String?, limit: String?, expectedOffset: Int, expectedLimit: Int) throws {
        let page = try LibraryPage.requested(offset: offset, limit: limit)
        #expect(page.offset == expectedOffset && page.limit == expectedLimit)
    }

    @Test("a negative offset, a limit outside 1…200 or a word is refused", arguments: [
        ("-1", nil), ("x", nil), (nil, "0"), (nil, "201"), (nil, "ten"),
    ] as [(String?, String?)])
    func refused(offset: String?, limit: String?) {
        #expect(throws: LibraryError.self) { try LibraryPage.requested(offset: offset, limit: limit) }
    }

    @Test("the tags of a library: one of each regardless of case, first spelling, sorted")
    func allTags() {
        let audio = AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)
        let recordings = [
            Recording(id: "b", name: "b", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 1, language: "en", tags: ["Work", "zeta"], audio: audio),
            Recording(id: "a", name: "a", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 1, language: "en", tags: ["work", "Alpha"], audio: audio),
        ]
        #expect(RecordingTags.all(in: recordings) == ["Alpha", "Work", "zeta"])
    }

    @Test("an export's file name is the recording's name made safe, or its id", arguments: [
        ("Team sync: Q3/Q4", ExportFormat.srt, "Team sync_ Q3_Q4.srt"),
        ("  ..hidden  ", .txt, "hidden.txt"),
        ("Café «notes»", .md, "Café _notes_.md"),
        ("///", .vtt, "___.vtt"),
        ("...", .json, "20261202-031805-6872.json"),
    ])
    func exportFileName(name: String, format: ExportFormat, expected: String) {
        let recording = Recording(id: "20261202-031805-6872", name: name, createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 1,
                                  language: "en", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(format.fileName(for: recording) == expected)
    }

    @Test("a translation's export is named with its language before the extension, as video players look for it")
    func translationFileName() {
        let recording = Recording(id: "20261202-031805-6872", name: "Team sync: Q3", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 1,
                                  language: "de", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        #expect(ExportFormat.srt.fileName(for: recording, translation: "en") == "Team sync_ Q3.en.srt")
        #expect(ExportFormat.txt.fileName(for: recording, translation: nil) == "Team sync_ Q3.txt")
    }
}
