import LiveTranscriberCore

/// The library store is the whole library an app's screens use: it already has search, delete
/// and draft recovery with the core protocol's signatures.
extension LibraryStore: RecordingLibrary {}
