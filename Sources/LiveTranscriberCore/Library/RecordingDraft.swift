import Foundation

/// An in-progress recording, from `RecordingStore.createDraft` until it is saved or discarded.
///
/// The recorder writes the audio to `audioFile` and gives each final segment to
/// `RecordingStore.appendToJournal`. The store's claim on the draft (on Linux, the draft folder's
/// `flock`) is held for as long as any copy of this value lives, or until it is saved or
/// discarded, so no other process recovers a draft that is still being recorded.
public struct RecordingDraft: Sendable {
    public let id: String
    /// The draft's folder (`drafts/<id>/` on Linux).
    public let folder: URL
    /// Where the recorder writes the audio: `<folder>/audio.<format>`.
    public let audioFile: URL
    /// When recording started, to the second.
    public let createdAt: Date
    /// BCP 47 tag, such as "en-US".
    public let language: String
    public let audio: AudioDescription
    /// What the store holds while the draft is recorded (a lock); released by save or discard.
    public let claim: (any AnyObject & Sendable)?

    public init(
        id: String, folder: URL, createdAt: Date, language: String, audio: AudioDescription,
        claim: (any AnyObject & Sendable)?
    ) {
        self.id = id
        self.folder = folder
        self.audioFile = folder.appendingPathComponent("audio.\(audio.format)")
        self.createdAt = createdAt
        self.language = language
        self.audio = audio
        self.claim = claim
    }
}
