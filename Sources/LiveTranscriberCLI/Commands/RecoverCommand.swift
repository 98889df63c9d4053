import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// `livetranscriber recover`: saves drafts left by a crash.
struct RecoverCommand: CLICommand {
    static let spec = CommandSpec(
        name: "recover",
        abstract: "Save recordings interrupted by a crash into the library.",
        options: [json],
        discussion: """
            Every library command does this first. A recording still in progress in another process
            is left alone. Recovered recordings keep every transcript segment that was final.
            """
    )

    static let json = OptionSpec.flag("json", "Print a JSON array of the recovered recordings.")

    var json: Bool

    init(arguments: ParsedArguments) throws {
        try arguments.expectPositionals("", min: 0, max: 0)
        json = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) throws -> Int32 {
        try LibraryAccess.checkDataDirectory(context)
        // No library, no drafts: nothing to recover, and nothing is created.
        let store = try LibraryStore.exists(in: context.dataDirectory)
            ? try LibraryStore(directory: context.dataDirectory, timeZone: LibraryAccess.timeZone(context)) : nil
        guard let store else {
            if json { try context.printJSON([Recording]()) } else { context.print("No interrupted recordings to recover.") }
            return ExitCode.success
        }
        if let block = store.writeBlock { throw LibraryError.readOnly(block) }
        let recovered = try store.recoverDrafts()
        LibraryAccess.printRecoveryNotes(store, context)
        for recording in recovered { context.saved.add(LibraryAccess.savedLine(recording)) }
        if json {
            try context.printJSON(recovered)
            return ExitCode.success
        }
        if recovered.isEmpty {
            context.print("No interrupted recordings to recover.")
        }
        for recording in recovered {
            let segments = try store.transcript(of: recording.id)
            context.print("Recovered \(recording.id) '\(recording.name)' (\(ElapsedTimeFormat.clock(recording.durationSeconds)), \(Plural.count(segments.count, "segment")))"
                + "\(RecoveryHint.hint(id: recording.id, durationSeconds: recording.durationSeconds, segments: segments)).")
        }
        return ExitCode.success
    }
}
