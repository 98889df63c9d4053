import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// `livetranscriber speaker ID S1 --name NAME`: names a speaker of a recording (`RecordingSpeakerLabels.rename`).
struct SpeakerCommand: CLICommand {
    static let spec = CommandSpec(
        name: "speaker",
        abstract: "Name a speaker of a recording, or list its speakers.",
        usage: "speaker <id> [<speaker> --name NAME|--no-name] [--json]",
        arguments: [
            ArgumentSpec("<id>", "A recording id, a unique prefix of one, or 'latest'."),
            ArgumentSpec("<speaker>", "A speaker id of that recording, as 'show' lists them: S1, S2…"),
        ],
        options: [name, noName, json],
        discussion: """
        Speakers are labelled by import, retranscribe and record's second pass when the speaker
        models are installed. Search finds a recording by a speaker's name.
        """
    )

    static let name = OptionSpec.value("name", "NAME", "The speaker's name, shown instead of 'Speaker 1'.")
    static let noName = OptionSpec.flag("no-name", "Remove the speaker's name: 'Speaker 1' shows again.")
    static let json = OptionSpec.flag("json", "Print the recording's speakers as JSON.")

    var reference: String
    /// The speaker renamed and the new name; nil lists the speakers.
    var renaming: (speaker: String, name: String)?
    var json: Bool

    init(arguments: ParsedArguments) throws {
        if arguments.value(Self.name) != nil && arguments.flag(Self.noName) { throw UsageError("--name and --no-name cannot be used together") }
        let name = arguments.flag(Self.noName) ? "" : arguments.value(Self.name)
        switch arguments.positionals.count {
        case 0: throw UsageError("missing ID")
        case 1: if name != nil { throw UsageError("--name needs the speaker it names, such as S1") }
        case 2: guard let name else { throw UsageError("missing --name NAME (or --no-name) for speaker '\(arguments.positionals[1])'") }
            renaming = (arguments.positionals[1].uppercased(), name)
        default: throw UsageError("unexpected argument '\(arguments.positionals[2])'; quote a name with spaces")
        }
        reference = arguments.positionals[0]
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        var recording = try store.resolve(reference)
        if let renaming {
            recording = try RecordingSpeakerLabels.rename(renaming.speaker, of: recording, to: renaming.name, in: store)
            let speaker = recording.speaker(renaming.speaker)
            context.saved.add("speaker \(speaker.id) of \(recording.id) was named '\(speaker.displayName)'")
        }
        if json {
            try context.printJSON(recording.speakers)
        } else if let renaming {
            context.print("Speaker \(renaming.speaker) of \(recording.id) is now '\(VisibleText.escaped(recording.speaker(renaming.speaker).displayName))'.")
        } else if recording.speakers.isEmpty {
            context.print("'\(VisibleText.escaped(recording.name))' has no speaker labels.")
        } else {
            for speaker in recording.speakers {
                context.print("\(speaker.id)  \(VisibleText.escaped(speaker.displayName))")
            }
        }
        return ExitCode.success
    }
}
