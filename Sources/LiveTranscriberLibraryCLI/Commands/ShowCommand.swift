import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// `livetranscriber show ID [--json]`: a recording's metadata and transcript.
struct ShowCommand: CLICommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show a recording's details and transcript.",
        arguments: [ArgumentSpec("<id>", "A recording id, a unique prefix of one, or 'latest'.")],
        options: [json]
    )

    static let json = OptionSpec.flag("json", "Print the recording with its segments as JSON.")

    var reference: String
    var json: Bool

    init(arguments: ParsedArguments) throws {
        reference = try LibraryAccess.singleID(arguments)
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        let recording = try store.resolve(reference)
        let segments = try store.transcript(of: recording.id)
        if json {
            try context.printJSON(RecordingWithTranscript(recording: recording, segments: segments))
            return ExitCode.success
        }
        context.stdout.write(Self.render(recording, segments: segments, timeZone: LibraryAccess.timeZone(context),
                                         audioMissing: store.isAudioMissing(recording.id)))
        return ExitCode.success
    }

    /// The metadata block, a blank line, then one "[m:ss] text" line per segment.
    /// - Parameter audioMissing: the recording's audio file is gone (`MissingAudioFile`): the Audio line says so.
    static func render(_ recording: Recording, segments: [TranscriptSegment], timeZone: TimeZone, audioMissing: Bool = false) -> String {
        var rows: [[String]] = [
            ["ID:", recording.id],
            ["Created:", LibraryFormat.dateTime(recording.createdAt, timeZone: timeZone)],
            ["Duration:", ElapsedTimeFormat.clock(recording.durationSeconds)],
            ["Language:", recording.language],
            ["Tags:", recording.tags.isEmpty ? "(none)" : recording.tags.joined(separator: ", ")],
            ["Audio:", "\(recording.audio.format), \(recording.audio.sampleRate) Hz, \(Plural.count(recording.audio.channels, "channel"))"
                + (AudioFormatSupport.libsndfile.canRead(recording.audio.format) ? "" : " (not readable on this machine)")
                + (audioMissing ? "; \(MissingAudioFile.clause)" : "")],
        ]
        if let summary = recording.summary { rows.append(["Summary:", summary]) }
        if let location = recording.location { rows.append(["Location:", "\(location.latitude), \(location.longitude)"]) }
        if !recording.vocabulary.isEmpty { rows.append(["Vocabulary:", recording.vocabulary.joined(separator: ", ")]) }
        if let translation = recording.translation {
            rows.append(["Translation:", "\(VisibleText.escaped(translation)) (export \(recording.id) --format txt --transcript translated)"])
        }
        if !recording.speakers.isEmpty {
            rows.append(["Speakers:", recording.speakers.map { speaker in
                speaker.name == nil ? speaker.id : "\(speaker.id) \(VisibleText.escaped(speaker.displayName))"
            }.joined(separator: ", ")])
        }
        if recording.recovered { rows.append(["Recovered:", "yes, rebuilt from a recording interrupted by a crash"]) }
        for (index, note) in recording.notes.enumerated() { rows.append([index == 0 ? "Notes:" : "", note]) }
        var text = VisibleText.escaped(recording.name) + "\n" + LibraryAccess.table(rows) + "\n"
        if segments.isEmpty {
            text += "(no transcript)\n"
        }
        // A turn names its speaker, and a change of language the language: "[0:12] Anna: (de) Guten Morgen."
        for (segment, label) in zip(segments, SegmentLabel.labels(segments, of: recording)) {
            text += "[\(ElapsedTimeFormat.clock(segment.startSeconds))] \(label.prefix(escape: VisibleText.escaped))\(VisibleText.escaped(segment.text))\n"
        }
        return text
    }
}
