import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal

/// `livetranscriber activity preview`: draws the Live Activity's four presentations as SVG files.
struct ActivityPreviewCommand: CLICommand {
    static let spec = CommandSpec(
        name: "activity preview",
        abstract: "Draw the Live Activity (Lock Screen and Dynamic Island) as SVG files.",
        usage: "activity preview --out DIR [--state recording|paused|stopped] [--text TEXT] [--elapsed SECONDS] [--private] [--json]",
        options: [out, state, text, elapsed, hidden, json],
        discussion: "Writes lock-screen.svg, island-expanded.svg, island-compact.svg and island-minimal.svg."
    )

    static let out = OptionSpec.value("out", "DIR", "Directory for the SVG files (created if missing).")
    static let state = OptionSpec.choice("state", "STATE", "recording, paused or stopped (default: recording).", choices: ["recording", "paused", "stopped"])
    static let text = OptionSpec.value("text", "TEXT", "Final transcript to show; lines separated by newlines.")
    static let elapsed = OptionSpec.value("elapsed", "SECONDS", "Elapsed recording time in seconds (default: 90).")
    /// `--private`.
    static let hidden = OptionSpec.flag("private", "Hide the transcript on the Lock Screen, as the privacy setting does.")
    static let json = OptionSpec.flag("json", "Print the files written as a JSON array of {presentation, path, width, height}.")

    /// Shown when no --text is given.
    static let sampleText = "It is a truth universally acknowledged, that a single man in possession of a good fortune, "
        + "must be in want of a wife.\nHowever little known the feelings or views of such a man may be on his first "
        + "entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families."

    /// The files written, in order.
    static let fileNames = ["lock-screen.svg", "island-expanded.svg", "island-compact.svg", "island-minimal.svg"]

    var outputDirectory: String
    var status: RecordingActivityAttributes.ContentState.Status
    var text: String
    var elapsedSeconds: Double
    var hideTranscript: Bool
    var json: Bool

    /// One file `--json` reports.
    struct Written: Encodable {
        var presentation: String
        var path: String
        var width: Int
        var height: Int
    }

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        guard let out = arguments.value(Self.out), !out.isEmpty else { throw UsageError("missing '--out DIR'") }
        outputDirectory = out
        let stateName = arguments.value(Self.state) ?? "recording"
        guard let status = RecordingActivityAttributes.ContentState.Status(rawValue: stateName) else {
            throw UsageError("'--state' must be recording, paused or stopped, not '\(stateName)'")
        }
        self.status = status
        text = arguments.value(Self.text) ?? Self.sampleText
        let elapsedText = arguments.value(Self.elapsed) ?? "90"
        guard let elapsed = Double(elapsedText), elapsed.isFinite, elapsed >= 0 else {
            throw UsageError("'--elapsed' must be a number of seconds, 0 or more, not '\(elapsedText)'")
        }
        elapsedSeconds = elapsed
        hideTranscript = arguments.flag(Self.hidden)
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let now = Date()
        let attributes = RecordingActivityAttributes(recordingID: "preview", name: "Preview", startDate: now.addingTimeInterval(-elapsedSeconds))
        let lines = text.split(whereSeparator: { $0.isNewline })
        let content = RecordingActivityAttributes.ContentState(
            status: status,
            timerReferenceDate: now.addingTimeInterval(-elapsedSeconds),
            elapsedSeconds: status == .recording ? nil : elapsedSeconds,
            transcript: PresentationText.transcriptSuffix(
                lines.map { TranscriptSegment(text: String($0), startSeconds: 0, endSeconds: 0) }, maxCharacters: 700),
            language: "en-US",
            segmentCount: lines.count
        )
        let settings = PresentationSettings(hideTranscriptOnLockScreen: hideTranscript)
        let documents = [
            ActivitySVGRenderer.lockScreen(
                LockScreenPresentation(attributes: attributes, content: content, settings: settings), elapsedSeconds: elapsedSeconds),
            ActivitySVGRenderer.expandedIsland(
                ExpandedIslandPresentation(attributes: attributes, content: content), elapsedSeconds: elapsedSeconds),
            ActivitySVGRenderer.compactIsland(CompactIslandPresentation(content: content), elapsedSeconds: elapsedSeconds),
            ActivitySVGRenderer.minimalIsland(MinimalIslandPresentation(content: content)),
        ]
        let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
        try OutputFile.refuseInsideLibrary(outputDirectory, library: context.dataDirectory)
        try OutputFile.makeFolder(outputDirectory)
        let sizes = [ActivitySVGRenderer.lockScreenSize, ActivitySVGRenderer.expandedIslandSize,
                     ActivitySVGRenderer.compactIslandSize, ActivitySVGRenderer.minimalIslandSize]
        var written: [Written] = []
        for ((name, svg), size) in zip(zip(Self.fileNames, documents), sizes) {
            let file = directory.appendingPathComponent(name)
            try OutputFile.write(Data(svg.utf8), to: file.path)
            written.append(Written(presentation: String(name.dropLast(4)), path: file.path, width: size.width, height: size.height))
            if !json { context.print(file.path) }
        }
        if json { try context.printJSON(written) }
        return ExitCode.success
    }
}
