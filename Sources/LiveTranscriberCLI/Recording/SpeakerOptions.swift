import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `--speakers N` and `--no-speakers`, shared by `import`, `record` and `retranscribe`: speaker
/// labels are made by default (`SpeakerLabelling`, with sherpa-onnx), after the words, never
/// during a live recording.
struct SpeakerOptions: Equatable {
    /// False with `--no-speakers`.
    var enabled = true
    /// `--speakers N`: the number of voices; nil to find it.
    var count: Int?

    /// The most voices `--speakers` takes.
    static let maximumCount = 20

    /// `--speakers N`.
    static let speakers = OptionSpec.value("speakers", "N", "The number of speakers, when known (1–\(maximumCount)); by default it is found.")
    /// `--no-speakers`.
    static let noSpeakers = OptionSpec.flag("no-speakers", "Make no speaker labels.")

    /// Both, for the spec of a command that takes them.
    static let options: [any CommandOption] = [speakers, noSpeakers]

    static let usage = "[--speakers N|--no-speakers]"

    /// Throws `UsageError` for both options, or an N that is not a whole number in 1…`maximumCount`.
    static func parse(_ arguments: ParsedArguments) throws -> SpeakerOptions {
        let value = arguments.value(Self.speakers)
        if arguments.flag(Self.noSpeakers) {
            if value != nil { throw UsageError("give either '--speakers' or '--no-speakers', not both") }
            return SpeakerOptions(enabled: false)
        }
        guard let value else { return SpeakerOptions() }
        guard let count = Int(value), (1...maximumCount).contains(count) else {
            throw UsageError("--speakers needs a whole number from 1 to \(maximumCount), not '\(value)'")
        }
        return SpeakerOptions(count: count)
    }

    /// The labelling step these options ask for, nil with `--no-speakers`.
    /// - Parameter diarizer: the diarizer to use (`CommandServices.diarizer`).
    func labelling(_ diarizer: any SpeakerDiarizer) -> SpeakerLabelling? {
        enabled ? SpeakerLabelling(diarizer: diarizer, speakerCount: count) : nil
    }

    /// Prints the note of a labelling step that was skipped (missing models), once per command.
    static func report(_ result: SpeakerLabelling.Result?, context: CommandContext) {
        if let note = result?.note { context.printError(note) }
    }
}
