import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

// The services commands get from the rest of the program (tests replace some through
// `CommandServices`). Commands that read or change saved recordings (list, show, search, rename,
// tag, delete, export, summarize, retranscribe) see the library only as `RecordingStore`; record,
// import and reindex use the concrete store for drafts and rebuilds.

/// The saved-recordings library in the context's data directory, drafts left by a crash recovered
/// first. Where no library exists yet, an empty one (`MissingLibrary`): these commands read or
/// change saved recordings, so they never create the library's folders.
func makeStore(_ context: CommandContext) throws -> any RecordingStore {
    try LibraryAccess.checkDataDirectory(context)
    guard LibraryStore.exists(in: context.dataDirectory) else { return MissingLibrary() }
    return try LibraryAccess.open(context)
}

/// The on-device recognizer pipeline for `retranscribe --engine local` (decode, downmix, resample,
/// recognize with `engine`; `model` is a model file the user brought).
func makeLocalTranscriber(engine: SpeechEngineKind, model: String?) -> any LocalTranscriber {
    LocalFileTranscriber(engine: engine, model: model)
}
