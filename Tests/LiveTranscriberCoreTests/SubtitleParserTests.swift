import Foundation
import LiveTranscriberTestSupport
import LiveTranscriberCore
import Testing

/// Feeds the SRT and WebVTT exports to independent parsers: Debian's python3-srt and python3-webvtt
/// (installed by scripts/install-deps.sh), run with the system /usr/bin/python3.
@Suite("Subtitles parse with independent parsers")
struct SubtitleParserTests {
    static let python = "/usr/bin/python3"

    static let script = """
        import json, sys, datetime, srt, webvtt
        with open(sys.argv[1], encoding="utf-8") as f:
            subs = list(srt.parse(f.read()))  # raises SRTParseError on anything it does not understand
        ms = lambda d: round(d / datetime.timedelta(milliseconds=1))
        out = {"srt": [[s.index, ms(s.start), ms(s.end), s.content] for s in subs]}
        vtt = webvtt.read(sys.argv[2])  # raises MalformedFileError / MalformedCaptionError
        out["vtt"] = [[c.identifier, round(c.start_in_seconds * 1000), round(c.end_in_seconds * 1000), c.raw_text] for c in vtt]
        print(json.dumps(out, ensure_ascii=False))
        """

    struct Parsed: Decodable {
        var srt: [[Cell]]
        var vtt: [[Cell]]
    }

    enum Cell: Decodable, Equatable {
        case int(Int), text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) { self = .int(value) } else { self = .text(try container.decode(String.self)) }
        }
    }

    func parse(srt: String, vtt: String) throws -> Parsed {
        let directory = try TestFolders.make("lt-subs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let srtURL = directory.appendingPathComponent("a.srt"), vttURL = directory.appendingPathComponent("a.vtt")
        try srt.write(to: srtURL, atomically: true, encoding: .utf8)
        try vtt.write(to: vttURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", Self.script, srtURL.path, vttURL.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "parser failed (run scripts/install-deps.sh): \(errors)")
        return try JSONDecoder().decode(Parsed.self, from: data)
    }

    @Test("SRT and WebVTT exports parse with the right cue count, numbers, times and text")
    func parses() throws {
        let segments = ExportFixtures.segments + [
            TranscriptSegment(text: "late <b>&</b>", startSeconds: 360_000, endSeconds: 360_001.9995),
            TranscriptSegment(text: "", startSeconds: 4000, endSeconds: 4001),
            TranscriptSegment(text: "end before start", startSeconds: 4003, endSeconds: 4002),
        ]
        let exporter = TranscriptExporter()
        let srt = exporter.export(recording: ExportFixtures.recording, segments: segments, format: .srt)
        let vtt = exporter.export(recording: ExportFixtures.recording, segments: segments, format: .vtt)
        let parsed = try parse(srt: srt, vtt: vtt)

        let times: [(Int, Int)] = [(0, 1500), (1500, 3250), (3250, 5000), (5000, 3_600_000),
                                   (4_003_000, 4_004_000), (360_000_000, 360_002_000)]
        #expect(parsed.srt.count == 6)
        #expect(parsed.vtt.count == 6)
        for (index, (start, end)) in times.enumerated() where index < parsed.srt.count && index < parsed.vtt.count {
            #expect(parsed.srt[index][0] == .int(index + 1))
            #expect(parsed.srt[index][1] == .int(start))
            #expect(parsed.srt[index][2] == .int(end))
            #expect(parsed.vtt[index][0] == .text("\(index + 1)"))
            #expect(parsed.vtt[index][1] == .int(start))
            #expect(parsed.vtt[index][2] == .int(end))
        }
        #expect(parsed.srt.first?[3] == .text("Hello & welcome <everyone>"))
        #expect(parsed.vtt.first?[3] == .text("Hello &amp; welcome &lt;everyone&gt;"))
        #expect(parsed.srt[2][3] == .text("第一行\n你好 🎉"))
        #expect(parsed.srt[3][3] == .text("مرحبا بالعالم"))
    }

    @Test("a long LibriVox sentence is split into cues the parsers read: 42 characters, 2 lines, 7 s, every word once")
    func splitCues() throws {
        let text = "he was not an ill disposed young man unless to be rather cold hearted and rather selfish is to "
            + "be ill disposed but he was in general well respected for he conducted himself with propriety in the "
            + "discharge of his ordinary duties"
        let tokens = text.split(separator: " ").map(String.init)
        let words = tokens.enumerated().map { index, word in
            WordTiming(word: word, startSeconds: 2 + Double(index) * 0.4, endSeconds: 2 + Double(index) * 0.4 + 0.35)
        }
        let segment = TranscriptSegment(text: text, startSeconds: 2, endSeconds: 2 + Double(tokens.count) * 0.4, words: words)
        let exporter = TranscriptExporter()
        let parsed = try parse(srt: exporter.export(recording: ExportFixtures.recording, segments: [segment], format: .srt),
                               vtt: exporter.export(recording: ExportFixtures.recording, segments: [segment], format: .vtt))
        #expect(parsed.srt.count == 3)
        #expect(parsed.vtt.count == parsed.srt.count)
        var previousEnd = 0
        var seen: [String] = []
        for cue in parsed.srt {
            guard case .int(let start) = cue[1], case .int(let end) = cue[2], case .text(let content) = cue[3] else {
                Issue.record("cue \(cue)")
                continue
            }
            let lines = content.split(separator: "\n")
            #expect(lines.count <= 2)
            #expect(lines.allSatisfy { $0.count <= 42 })
            #expect(end - start <= 7000)
            #expect(start >= previousEnd)
            previousEnd = end
            seen += lines.flatMap { $0.split(separator: " ").map(String.init) }
        }
        #expect(seen == tokens)
        #expect(parsed.srt.map { $0[1] } == parsed.vtt.map { $0[1] })
        #expect(parsed.srt.map { $0[3] } == parsed.vtt.map { $0[3] })
    }
}
