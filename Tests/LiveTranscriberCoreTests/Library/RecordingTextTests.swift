import LiveTranscriberCore
import Testing

@Suite("Names and tags people type")
struct RecordingTextTests {
    @Test("a typed name is trimmed; empty, multi-line or over-long names are refused", arguments: [
        ("  Standup  ", Result<String, RecordingTextError>.success("Standup")),
        ("   ", .failure(.emptyName)),
        ("two\nlines", .failure(.controlCharacters(field: .name))),
        (String(repeating: "é", count: 200), .success(String(repeating: "é", count: 200))),
        (String(repeating: "é", count: 201), .failure(.tooLong(field: .name, limit: 200))),
    ])
    func names(text: String, expected: Result<String, RecordingTextError>) {
        #expect(Result { try RecordingText.checkedName(text) } .mapError { $0 as! RecordingTextError } == expected)
    }

    @Test("a name from a file name folds control characters and white space", arguments: [
        ("meeting\tnotes  2026", "meeting notes 2026"),
        ("\u{7}\n ", "Imported audio"),
        (String(repeating: "a", count: 250), String(repeating: "a", count: 200)),
    ])
    func fileNames(fileName: String, name: String) {
        #expect(RecordingText.name(fromFileName: fileName) == name)
    }

    @Test("a tag list splits on commas and refuses bad tags")
    func tags() throws {
        #expect(try RecordingText.tags(fromList: "a, b,,a") == ["a", " b", "", "a"])
        #expect(throws: RecordingTextError.controlCharacters(field: .tag)) { try RecordingText.tags(fromList: "a,b\u{1}") }
        #expect(throws: RecordingTextError.tooLong(field: .tag, limit: 100)) {
            try RecordingText.checkTag(String(repeating: "t", count: 101))
        }
        try RecordingText.checkTag(String(repeating: "t", count: 100))
    }

    @Test("errors read as the end of a sentence about the field")
    func descriptions() {
        #expect(RecordingTextError.emptyName.description == "cannot be empty")
        #expect(RecordingTextError.tooLong(field: .tag, limit: 100).description == "is longer than 100 characters")
    }

    @Test("tags are stored trimmed, without empty ones or repeats in any case, first spelling and order kept")
    func normalized() {
        #expect(RecordingText.normalizedTags([" Work", "ideas", "", "work", "  ", "Ideas ", "later"]) == ["Work", "ideas", "later"])
    }
}
