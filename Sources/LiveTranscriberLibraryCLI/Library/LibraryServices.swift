import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// The saved-recordings library in the context's data directory (`LibraryAccess.open`), drafts
/// left by a crash recovered first when the program can read audio. Where no library exists yet,
/// an empty one (`MissingLibrary`): these commands read or change saved recordings, so they never
/// create the library's folders. Commands that read or change saved recordings (list, show,
/// search, rename, tag, delete, export, summarize, retranscribe) see it only as `RecordingStore`.
package func makeStore(_ context: CommandContext) throws -> any RecordingStore {
    try LibraryAccess.checkDataDirectory(context)
    guard try LibraryStore.exists(in: context.dataDirectory) else { return MissingLibrary() }
    return try LibraryAccess.open(context)
}

/// What `export` takes from outside; tests replace the store.
struct LibraryServices {
    var store: (CommandContext) throws -> any RecordingStore = { try makeStore($0) }
}
