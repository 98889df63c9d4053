import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Recording names, tags, ids and lookup: one rule each")
struct RecordingRulesTests {
    @Test("names: trimmed; empty, multi-line, hidden characters and over 200 characters refused", arguments: [
        ("  Weekly sync  ", nil),
        ("", RecordingName.Problem.empty),
        ("two\nlines", .multipleLines),
        ("evil\u{202E}txt.exe", .hiddenCharacter("U+202E")),
        ("isolate\u{2067}x", .hiddenCharacter("U+2067")),
        ("escape\u{1B}[2J", .hiddenCharacter("U+001B")),
        ("soft\u{AD}hyphen", .hiddenCharacter("U+00AD")),
        ("zero\u{200B}width", .hiddenCharacter("U+200B")),
        (String(repeating: "a", count: 201), .tooLong(maximum: 200)),
        ("👨‍👩‍👧 trip", nil),
        ("نام\u{200C}ها", nil),
    ] as [(String, RecordingName.Problem?)])
    func names(text: String, problem: RecordingName.Problem?) {
        #expect(RecordingName.problem(in: text) == problem)
        if problem == nil { #expect(throws: Never.self) { try RecordingName.validated(text) } }
    }

    @Test("a name the user may leave blank: none or white space only gives nil (the default name); anything else is validated and trimmed")
    func blankNameMeansTheDefault() throws {
        #expect(try RecordingName.validatedUnlessBlank(nil) == nil)
        #expect(try RecordingName.validatedUnlessBlank("") == nil)
        #expect(try RecordingName.validatedUnlessBlank(" \t\n ") == nil)
        #expect(try RecordingName.validatedUnlessBlank("  Standup  ") == "Standup")
        #expect(throws: LibraryError.invalid("a recording's name must be one line.")) {
            try RecordingName.validatedUnlessBlank("one\ntwo")
        }
    }

    @Test("the refusal reads as a sentence")
    func nameMessage() {
        #expect(throws: LibraryError.invalid("a recording's name cannot contain control or invisible formatting characters (found U+202E).")) {
            try RecordingName.validated("a\u{202E}b")
        }
        #expect(RecordingName.Problem.empty.message(subject: "--name") == "--name cannot be empty")
    }

    @Test("names made from file names drop hidden characters instead of refusing")
    func cleanedNames() {
        #expect(RecordingName.cleaned("talk\u{1B}[2J") == "talk")
        #expect(RecordingName.cleaned("evil\u{202E}vaw.exe") == "evil vaw.exe")
        #expect(RecordingName.cleaned("\u{202E}\u{200B}") == "Imported audio")
        #expect(RecordingName.cleaned(String(repeating: "b", count: 300)).count == 200)
    }

    @Test("names and tags from outside text lose whole escape sequences, with no residue", arguments: [
        ("evil\u{1B}[31m", "evil"),
        ("\u{1B}[1;31mred\u{1B}[0m alert", "red alert"),
        ("a\u{1B}[?25lb", "a b"),
        ("\u{1B}]0;pwned\u{7}title", "title"),
        ("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("x\u{9B}2Jy", "x y"),
        ("\u{1B}Pq#0;2;0;0;0\u{1B}\\sixel", "sixel"),
        ("charset\u{1B}(B", "charset"),
        ("reset\u{1B}c", "reset"),
        ("open\u{1B}]2;never ends", "open"),
        ("trailing\u{1B}", "trailing"),
        ("\u{1B}[31m", "Imported audio"),
        ("plain [31m text", "plain [31m text"),
    ])
    func escapeSequencesInNames(input: String, name: String) {
        #expect(RecordingName.cleaned(input) == name)
    }

    @Test("escape sequences are removed whole, each leaving one space, other text untouched")
    func withoutEscapeSequences() {
        #expect(VisibleText.withoutEscapeSequences("evil\u{1B}[31m") == "evil ")
        #expect(VisibleText.withoutEscapeSequences("中文\u{1B}[0m❤️") == "中文 ❤️")
        #expect(VisibleText.withoutEscapeSequences("no escapes, Café") == "no escapes, Café")
        #expect(RecordingTags.cleaned(["work\u{1B}[31m,\u{1B}]0;x\u{7}home"]) == ["work", "home"])
    }

    @Test("one duration rule: no recording is longer than its audio, and none is not finite", arguments: [
        (86_400, 2, 2), (2.4, 2, 2.4), (2.6, 2, 2), (.nan, 2, 2), (.infinity, 2, 2), (-1, 2, 0),
        (1, 2, 1), (5, nil, 5), (.nan, nil, 0), (.infinity, .infinity, 0),
    ] as [(Double, Double?, Double)])
    func durationAgainstAudio(stated: Double, audio: Double?, kept: Double) {
        #expect(Recording.duration(stated, audioSeconds: audio) == kept)
    }

    @Test("the default name is the date and minute in the given time zone")
    func defaultName() {
        let date = Date(timeIntervalSince1970: 1_795_984_872)
        #expect(RecordingName.defaultName(createdAt: date, timeZone: TimeZone(identifier: "UTC")!) == "Recording 2026-11-29 20:41")
    }

    @Test("tags: commas separate everywhere, trimmed, empty dropped, one per case-folded spelling", arguments: [
        (["a,b"], ["a", "b"]),
        (["a, b,,a", "B"], ["a", "b"]),
        (["Fußball", "FUSSBALL", "fussball"], ["Fußball"]),
        (["Café", "Cafe"], ["Café", "Cafe"]),
        ([" ", ","], []),
    ])
    func tags(inputs: [String], expected: [String]) throws {
        #expect(try RecordingTags.normalized(inputs) == expected)
    }

    @Test("tags with hidden characters or over 100 characters are refused; cleaned for saves")
    func badTags() {
        #expect(throws: LibraryError.invalid("a tag cannot contain control or invisible formatting characters (found U+202E).")) {
            try RecordingTags.normalized(["ok", "x\u{202E}y"])
        }
        #expect(throws: LibraryError.invalid("a tag is longer than 100 characters.")) {
            try RecordingTags.normalized([String(repeating: "t", count: 101)])
        }
        #expect(RecordingTags.cleaned(["a\u{202E}b,c"]) == ["a b", "c"])
    }

    @Test("every tag once, in reading order: accents sort with their letter, case and accents only break ties")
    func allTagsInReadingOrder() {
        let audio = AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)
        let recordings = [["x", "Ünï", "Zeta"], ["café", "cafe", "alpha", "ÜNÏ"], ["Étude", "eta"]].enumerated().map { index, tags in
            Recording(id: "r\(index)", name: "n", createdAt: Date(timeIntervalSince1970: 0), durationSeconds: 1, language: "en",
                      tags: tags, audio: audio)
        }
        #expect(RecordingTags.all(in: recordings) == ["alpha", "cafe", "café", "eta", "Étude", "Ünï", "x", "Zeta"])
    }

    @Test("adding and removing: commas split, any case removes, removal wins")
    func changes() throws {
        #expect(try RecordingTags.changed(["Work"], adding: ["a,b"], removing: []) == ["Work", "a", "b"])
        #expect(try RecordingTags.changed(["Work", "a", "b"], adding: [], removing: ["WORK,b"]) == ["a"])
        #expect(try RecordingTags.changed([], adding: ["x"], removing: ["X"]) == [])
    }

    @Test("ids: yyyyMMdd-HHmmss-xxxx in UTC, sorted by time; safe ids name one folder")
    func ids() {
        let id = RecordingID.new(date: Date(timeIntervalSince1970: 1_795_984_872))
        #expect(id.hasPrefix("20261129-204112-"))
        #expect(id.count == 20)
        #expect(id.suffix(4).allSatisfy { $0.isHexDigit })
        #expect(RecordingID.isSafe("20261129-204112-3f9a"))
        #expect(!RecordingID.isSafe("../x") && !RecordingID.isSafe(".hidden") && !RecordingID.isSafe(""))
    }

    @Test("lookup: latest, exact id, unique prefix; ambiguity lists five and says how many more")
    func lookup() throws {
        let t0 = Date(timeIntervalSince1970: 1_795_984_872)
        let audio = AudioDescription(format: "wav", sampleRate: 16_000, channels: 1)
        let recordings = (1...6).map { index in
            Recording(id: "2026112\(index)-000000-aaaa", name: "R\(index)", createdAt: t0.addingTimeInterval(Double(index)),
                      durationSeconds: 1, language: "en-US", audio: audio)
        }
        let store = InMemoryRecordingStore(recordings: recordings)
        #expect(try store.resolve(" latest ").id == "20261126-000000-aaaa")
        #expect(try store.resolve("LATEST").id == "20261126-000000-aaaa")
        #expect(try store.resolve("20261123").id == "20261123-000000-aaaa")
        #expect(throws: LibraryError.notFound("2027")) { try store.resolve("2027") }
        do {
            _ = try store.resolve("2026")
            Issue.record("expected ambiguity")
        } catch let error as LibraryError {
            #expect(error.description == "'2026' matches 6 recordings (20261121-000000-aaaa, 20261122-000000-aaaa, 20261123-000000-aaaa, 20261124-000000-aaaa, 20261125-000000-aaaa and 1 more); give more of the id.")
        }
        #expect(throws: LibraryError.notFound("latest")) { try InMemoryRecordingStore().resolve("latest") }
    }

    @Test("one clock rounding rule: milliseconds first, then whole seconds dropped", arguments: [
        (2.99, "0:02", "00:00:02"), (2.9996, "0:03", "00:00:03"), (3.0, "0:03", "00:00:03"), (62.9, "1:02", "00:01:02"),
        (3599.999, "59:59", "00:59:59"), (3600, "1:00:00", "01:00:00"), (-1, "0:00", "00:00:00"), (.nan, "0:00", "00:00:00"),
    ])
    func clocks(seconds: Double, clock: String, export: String) {
        #expect(ElapsedTimeFormat.clock(seconds) == clock)
        #expect(SubtitleTimestamp.clock(seconds) == export)
    }
}

@Suite("One segment-cleanup rule, live and in export")
struct SegmentCleanupRuleTests {
    @Test("a segment whose end is before its start gets the same times live, saved and exported")
    func sameTimesEverywhere() {
        let bad = TranscriptSegment(text: " turn left ", startSeconds: 5, endSeconds: 3,
                                    words: [WordTiming(word: "turn", startSeconds: 4, endSeconds: 6)])
        var assembler = TranscriptAssembler()
        _ = assembler.apply(.final(bad))
        let live = assembler.finals
        let exported = SegmentSanitizer.sanitize([bad])
        let expected = [TranscriptSegment(text: "turn left", startSeconds: 5, endSeconds: 5,
                                          words: [WordTiming(word: "turn", startSeconds: 5, endSeconds: 5)])]
        #expect(live == expected)
        #expect(exported == expected)
    }
}

@Suite("Dates a user types")
struct TypedDateTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test("the date list prints, ISO without a zone (local), and full ISO are read", arguments: [
        ("2026-11-29", 1_795_878_000.0),  // midnight in Tokyo, 15:00 UTC the day before
        ("2026-11-29 20:41", 1_795_952_460),
        ("2026-11-29T20:41", 1_795_952_460),
        ("2026-11-29T20:41:12", 1_795_952_472),
        ("2026-11-29T20:41:12Z", 1_795_984_872),
        ("2026-11-29T20:41:12.500Z", 1_795_984_872.5),
        ("2026-11-29T20:41:12+09:00", 1_795_952_472),
    ])
    func parses(text: String, seconds: Double) {
        #expect(LibraryFormat.parseDate(text, timeZone: Self.tokyo)?.timeIntervalSince1970 == seconds)
    }

    @Test("anything else is refused", arguments: ["yesterday", "2026-02-30", "2026-11-29 24:00", "2026-11-29 20:61", "29/11/2026", "2026-11-29T20"])
    func refuses(text: String) {
        #expect(LibraryFormat.parseDate(text, timeZone: Self.tokyo) == nil)
    }
}
