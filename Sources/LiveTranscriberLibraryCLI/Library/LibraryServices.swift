import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// The saved-recordings library in the context's data directory (`LibraryAccess.open`), drafts
/// left by a crash recovered first when the program can read audio. Commands that read or change
/// saved recordings see it only as `RecordingStore`.
package func makeStore(_ context: CommandContext) throws -> any RecordingStore {
    try LibraryAccess.checkDataDirectory(context)
    guard LibraryStore.exists(in: context.dataDirectory) else { return MissingLibrary() }
    return try LibraryAccess.open(context)
}

/// What `export` takes from outside; tests replace the store.
struct LibraryServices {
    var store: (CommandContext) throws -> any RecordingStore = { try makeStore($0) }
}
