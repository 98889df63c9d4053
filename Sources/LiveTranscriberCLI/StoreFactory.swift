import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

// The services commands get from the rest of the program (tests replace some through
// `CommandServices`). Commands that read or change saved recordings (list, show, search, rename,
// tag, delete, export, summarize, retranscribe) see the library only as `RecordingStore`; record,
// import and reindex use the concrete store for drafts and rebuilds.

/// The saved-recordings library in the context's data directory, drafts left by a crash recovered first.
func makeStore(_ context: CommandContext) throws -> any RecordingStore {
    try LibraryAccess.open(context)
}

/// The on-device recognizer pipeline for `retranscribe --engine local` (decode, downmix, resample,
/// recognize with `engine`; `model` is a model file the user brought).
func makeLocalTranscriber(engine: SpeechEngineKind, model: String?) -> any LocalTranscriber {
    LocalFileTranscriber(engine: engine, model: model)
}
