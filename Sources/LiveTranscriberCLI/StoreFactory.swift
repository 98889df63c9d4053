import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

// The services the commands of issue 5 (export, summarize, retranscribe) get from the rest of the
// program. The lead replaces these bodies with the real library and recognizer pipeline.

/// The saved-recordings library the commands read and write.
///
/// - Throws: `ServiceUnavailable.library` until the real `LibraryStore` is wired in.
func makeStore(_ context: CommandContext) throws -> any RecordingStore {
    let store = try LibraryStore(directory: context.dataDirectory)
    _ = try store.recoverDrafts()
    return store
}

/// The on-device recognizer pipeline for `retranscribe --engine local` (decode, downmix, resample, recognize).
///
/// - Throws: `ServiceUnavailable.localTranscriber` until the recognizer pipeline is wired in.
func makeLocalTranscriber(_ context: CommandContext) throws -> any LocalTranscriber {
    PocketSphinxFileTranscriber()
}

/// A service this build does not have yet.
enum ServiceUnavailable: Error, LocalizedError, Equatable {
    case library
    case localTranscriber

    var errorDescription: String? {
        switch self {
        case .library: return "library not available in this build."
        case .localTranscriber: return "local transcription is not available in this build; use '--engine openai'."
        }
    }
}
