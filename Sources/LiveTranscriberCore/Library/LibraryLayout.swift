import Foundation

/// File and folder names inside the data directory: the one place they are spelled, for the
/// store, the iCloud Drive sync rules and the app.
///
/// ```
/// <data>/library.sqlite            the index (a cache; `reindex` rebuilds it from the folders)
/// <data>/library.lock              flock'd by every change to the library
/// <data>/library.generation        bumped by every change; the index records the one it saw
/// <data>/vocabulary.txt            optional, written by the user: terms the recognizer should
///                                  expect, one a line or comma-separated (`Vocabulary`)
/// <data>/recordings/<id>/          audio.<wav|flac|opus|m4a>, transcript.json, metadata.json,
///                                  transcript.previous.json (after a replace: the segments and the
///                                  language they went with), transcript.json.damaged (a transcript
///                                  that could not be read, set aside by a replace or restore)
/// <data>/drafts/<id>/              draft.json, journal.jsonl, lock, audio.<ext>, and `discard`
///                                  when nothing of it is to be kept after a crash; while an M4A
///                                  recording is saved, `.audio.encoding.m4a` beside its WAV
/// <data>/trash/<id>/               deleted recordings
/// <data>/live/<id>/                while draft <id> is recorded by `record`: events.jsonl (the live
///                                  event stream) and activity.jsonl (the Live Activity feed), for
///                                  `serve`'s Live page; removed when the recording ends (and by
///                                  the draft's recovery after a crash); never part of a recording
/// ```
public enum LibraryLayout {
    public static let recordings = "recordings"
    public static let drafts = "drafts"
    public static let trash = "trash"
    /// The folder of recordings in progress as other programs follow them (`live/<draft id>/`).
    public static let live = "live"
    /// In `live/<id>/`: the live event stream (`RecordingStreamEvent`, one JSON line each).
    public static let liveEvents = "events.jsonl"
    /// In `live/<id>/`: the Live Activity feed (one JSON line per request, update or end).
    public static let liveActivity = "activity.jsonl"
    public static let index = "library.sqlite"
    public static let writeLock = "library.lock"
    public static let generation = "library.generation"
    /// The library's vocabulary file (`Vocabulary.parse`), used when neither `--vocabulary` nor
    /// `LIVETRANSCRIBER_VOCABULARY` gives one.
    public static let vocabulary = "vocabulary.txt"
    public static let metadata = "metadata.json"
    public static let transcript = "transcript.json"
    public static let previousTranscript = "transcript.previous.json"
    /// The translation kept next to the transcript (`--translate`): segments as in `transcript`.
    public static let translation = "translation.json"
    public static let draftManifest = "draft.json"
    public static let journal = "journal.jsonl"
    public static let draftLock = "lock"
    /// An empty file in a draft folder, written before anything else of the draft: the draft is
    /// never recovered (`record --discard`, an `import` that can simply be run again).
    public static let discardMarker = "discard"
    /// A recording's or draft's audio file: `audio.<format>` (`wav`, `flac`, `opus`, `m4a`).
    public static func audio(_ format: StoredAudioFormat) -> String { "audio.\(format.fileExtension)" }
    /// The hidden file a draft's audio is encoded into on save, before it becomes `audio.<ext>`
    /// (the extension stays last: AVFoundation picks the container from it).
    public static func encodingAudio(_ fileExtension: String) -> String { ".audio.encoding.\(fileExtension)" }
}
