import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The five LibriVox recordings joined (24.7 s of fluent reading, five sentences) and their five
/// reference sentences, in order.
enum JoinedLibriVox {
    static let folder = "/usr/share/pocketsphinx/test/data/librivox"

    /// - Parameter silenceAfterEach: seconds of digital silence after each recording; 0 joins them with no gap.
    static func make(silenceAfterEach: Double = 0) throws -> (path: String, sentences: [String]) {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".wav") }.sorted()
        let work = try TestFolders.make("lt-joined")
        let output = work.appendingPathComponent("joined.wav").path
        var inputs = files.map { folder + "/" + $0 }
        if silenceAfterEach > 0 {
            let gap = work.appendingPathComponent("gap.wav").path
            try ExternalTool.run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", gap, "trim", "0", String(silenceAfterEach)])
            inputs = inputs.flatMap { [$0, gap] }
        }
        try ExternalTool.run("/usr/bin/sox", inputs + [output])
        let lines = try String(contentsOfFile: folder + "/transcription", encoding: .utf8).split(separator: "\n")
        let sentences = files.map { file in
            let id = (file as NSString).deletingPathExtension
            let line = lines.first { $0.hasSuffix("(\(id))") } ?? ""
            return String(line.dropLast(id.count + 2)).replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
        }
        return (output, sentences)
    }
}

@Suite("record --events: the live event stream")
struct LiveEventsTests {
    @Test("fluent speech through record --events -: phases in order, the five sentences within a word or two each (a long one may come in clauses), each final with its words and times")
    func joinedLibriVoxEvents() throws {
        let library = try TemporaryLibrary()
        let (path, sentences) = try JoinedLibriVox.make()
        let result = try runBinary(["record", "--input", path, "--speed", "max", "--events", "-"],
                                   environment: WhisperCommandTests.defaultEnvironment(library))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Saved "))
        let decoder = JSONDecoder()
        let events = try result.stdout.split(separator: "\n").map { try decoder.decode(RecordingStreamEvent.self, from: Data($0.utf8)) }
        #expect(events.compactMap(\.phase) == ["preparing", "recording", "stopping", "draft", "saved"])
        // Every event's wall time and audio time only move forward.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.elapsed <= $1.elapsed })
        let finals = events.filter { $0.type == .final }
        #expect(zip(finals, finals.dropFirst()).allSatisfy { $0.audioEnd <= $1.audioStart })
        // A sentence is one final, or a few when it runs long (clause by clause): the finals that end
        // with a sentence end close one sentence each.
        var spoken: [String] = [], current: [String] = []
        for final in finals {
            current.append(final.text ?? "")
            if LocalAgreement.endsSentence(String((final.text ?? "").split(separator: " ").last ?? "")) {
                spoken.append(current.joined(separator: " "))
                current = []
            }
        }
        if !current.isEmpty { spoken.append(current.joined(separator: " ")) }
        #expect(spoken.count == 5, "\(finals.compactMap(\.text))")
        for (text, sentence) in zip(spoken, sentences) {
            #expect(WordErrorRate.measure(reference: sentence, hypothesis: text).errors <= 2, "\(text) ≠ \(sentence)")
        }
        for final in finals {
            let text = final.text ?? ""
            let words = final.words ?? []
            #expect(words.map(\.word).joined(separator: " ") == text)
            #expect(words.first?.start == final.audioStart && words.last?.end == final.audioEnd)
            #expect(words.allSatisfy { $0.start <= $0.end })
        }
        #expect(finals.last.map { $0.audioEnd <= 24.73 } == true)
        // Interims (few or none at --speed max: the audio outruns the decodes) cover audio after the last final.
        for (index, event) in events.enumerated() where event.type == .interim {
            let lastFinal = events[..<index].last { $0.type == .final }
            #expect(event.text != nil && event.audioStart == (lastFinal?.audioEnd ?? 0) && event.audioStart <= event.audioEnd)
        }
        #expect(events.first?.type == .phase && events.last?.phase == "saved")
    }

    @Test("--events refuses an empty path and a stdout already taken")
    func eventsUsage() throws {
        let library = try TemporaryLibrary()
        for (arguments, line) in [
            (["--events", ""], "error: '--events' needs a value; it was given an empty one"),
            (["--events", "-", "--json"], "error: --events - and --json both want stdout; write one of them to a file\n"),
        ] {
            let result = library.run(["record", "--input", Speech.librivox, "--speed", "max"] + arguments)
            #expect(result.exitCode == 64)
            #expect(result.stderr.hasPrefix(line), "\(result.stderr)")
        }
    }
}
