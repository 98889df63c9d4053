import LiveTranscriberCore

/// The library store is the whole library an app's screens use: it already recovers drafts with
/// the core protocol's signature.
extension LibraryStore: RecordingLibrary {}
