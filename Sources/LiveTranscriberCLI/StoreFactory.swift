import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

// The services commands get from the rest of the program (tests replace some through
// `CommandServices`). The library itself comes from `makeStore` (LiveTranscriberLibraryCLI);
// record, import and reindex use the concrete store for drafts and rebuilds.

/// The on-device recognizer pipeline for `retranscribe --engine local` (decode, downmix, resample,
/// recognize with `engine`; `model` is a model file the user brought).
package func makeLocalTranscriber(engine: SpeechEngineKind, model: String?) -> any LocalTranscriber {
    LocalFileTranscriber(engine: engine, model: model)
}
