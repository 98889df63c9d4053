import Foundation

/// File and folder names inside the data directory.
///
/// ```
/// <data>/library.sqlite            the index (a cache; `reindex` rebuilds it from the folders)
/// <data>/library.lock              flock'd by every change to the library
/// <data>/library.generation        bumped by every change; the index records the one it saw
/// <data>/recordings/<id>/          audio.<wav|flac|opus|m4a>, transcript.json, metadata.json,
///                                  transcript.previous.json (after a replace: the segments and the
///                                  language they went with), transcript.json.damaged (a transcript
///                                  that could not be read, set aside by a replace or restore)
/// <data>/drafts/<id>/              draft.json, journal.jsonl, lock, audio.<ext>, and `discard`
///                                  when nothing of it is to be kept after a crash; while an M4A
///                                  recording is saved, `.audio.encoding.m4a` beside its WAV
/// <data>/trash/<id>/               deleted recordings
/// ```
enum LibraryLayout {
    static let recordings = "recordings"
    static let drafts = "drafts"
    static let trash = "trash"
    static let index = "library.sqlite"
    static let writeLock = "library.lock"
    static let generation = "library.generation"
    static let metadata = "metadata.json"
    static let transcript = "transcript.json"
    static let previousTranscript = "transcript.previous.json"
    static let draftManifest = "draft.json"
    static let journal = "journal.jsonl"
    static let draftLock = "lock"
    /// An empty file in a draft folder, written before anything else of the draft: the draft is
    /// never recovered (`record --discard`, an `import` that can simply be run again).
    static let discardMarker = "discard"
    /// The hidden file a draft's audio is encoded into on save, before it becomes `audio.<ext>`
    /// (the extension stays last: AVFoundation picks the container from it).
    static func encodingAudio(_ fileExtension: String) -> String { ".audio.encoding.\(fileExtension)" }
}
