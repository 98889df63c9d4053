import Foundation

/// Encodes a finished audio file into another stored format: the closed WAV draft of an M4A
/// recording into AAC when it is saved (`RecordingAudioFormat.isEncodedOnSave`). Implemented over
/// AVFoundation on iPhone; Linux has none (libsndfile has no AAC encoder).
public protocol AudioFileEncoding: Sendable {
    /// Reads all of `source` and writes it to `destination` (a new file) as `format`, at the
    /// source's rate and channels.
    /// - Throws: when the source cannot be read or the destination written; `destination` may then
    ///   hold a partial file, which the caller removes.
    func encode(_ source: URL, to destination: URL, as format: RecordingAudioFormat) throws
}

/// What a draft store does with the draft's audio when it saves it: encode it to `format` with
/// `encoder` first.
///
/// The rule the stores follow (`LibraryStore`, `InMemoryRecordingStore`): the draft's own file is
/// kept until the encoded file is complete and durable; the saved recording then names the encoded
/// file and the draft's file is removed. An encode that fails (the encoder's error, a bit rate the
/// encoder refuses) saves the recording in the draft's format instead: nothing recorded is lost
/// over a size preference.
public struct DraftAudioEncoding: Sendable {
    /// The saved recording's format.
    public var format: RecordingAudioFormat
    public var encoder: any AudioFileEncoding

    public init(format: RecordingAudioFormat, encoder: any AudioFileEncoding) {
        self.format = format
        self.encoder = encoder
    }
}
