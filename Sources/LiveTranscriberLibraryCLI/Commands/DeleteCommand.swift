import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// `livetranscriber delete ID [--purge]`.
struct DeleteCommand: CLICommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Move a recording to the trash, or delete it for good.",
        arguments: [ArgumentSpec("<id>", "A recording id or a unique prefix of one ('latest' is refused: give the id).")],
        options: [purge, json],
        discussion: "Trashed recordings stay in <data>/trash/<id>/ until you delete them yourself."
    )

    static let purge = OptionSpec.flag("purge", "Delete the recording's folder instead of moving it to the trash.")
    static let json = OptionSpec.flag("json", "Print {\"id\", \"purged\"} as JSON.")

    var reference: String
    var purge: Bool
    var json: Bool

    init(arguments: ParsedArguments) throws {
        reference = try LibraryAccess.singleID(arguments)
        if RecordingID.isLatest(reference) {
            throw UsageError("'latest' is not accepted by delete; give the recording's id")
        }
        purge = arguments.flag(Self.purge)
        json = arguments.flag(Self.json)
    }

    struct Deleted: Encodable {
        var id: String
        var purged: Bool
    }

    func run(in context: CommandContext) throws -> Int32 {
        let store = try makeStore(context)
        // A folder whose metadata.json or transcript.json cannot be read is refused by resolve;
        // given by its exact id it is still deleted like any other (its name unknown).
        let id: String
        let label: String
        do {
            let recording = try store.resolve(reference)
            (id, label) = (recording.id, "\(recording.id) '\(recording.name)'")
        } catch LibraryError.corrupt where store.isUnreadableFolder(reference) {
            (id, label) = (reference, "\(reference) (unreadable)")
        }
        try store.delete(id, purge: purge)
        context.saved.add(purge ? "\(id) was deleted for good" : "\(id) was moved to the trash")
        if json {
            try context.printJSON(Deleted(id: id, purged: purge))
        } else if purge {
            context.print("Deleted \(label) for good.")
        } else {
            context.print("Moved \(label) to the trash.")
        }
        return ExitCode.success
    }
}
