import Foundation

/// What one platform's audio library can do with each stored format: which formats new
/// recordings can be saved in, and which saved recordings' audio it can read (play, measure,
/// transcribe again, upload in pieces).
///
/// A library folder moves between Linux and iPhone unchanged, so a recording may be stored in a
/// format this machine cannot read (an iPhone's M4A on Linux). Its transcript, name, tags and
/// summary are files of their own and work everywhere; only commands that need the audio refuse,
/// with `AudioFormatUnsupported`'s one line.
public struct AudioFormatSupport: Sendable, Equatable {
    /// The library's name, for messages ("libsndfile").
    public var library: String
    /// Formats a new recording can be saved in here.
    public var writes: [RecordingAudioFormat]
    /// Formats whose audio can be read here.
    public var reads: [RecordingAudioFormat]

    public init(library: String, writes: [RecordingAudioFormat], reads: [RecordingAudioFormat]) {
        self.library = library
        self.writes = writes
        self.reads = reads
    }

    /// Linux: libsndfile writes and reads WAV/RF64, FLAC and Ogg Opus; it has no AAC codec.
    public static let libsndfile = AudioFormatSupport(library: "libsndfile", writes: [.wav, .flac, .opus], reads: [.wav, .flac, .opus])
    /// iPhone: AVFoundation writes WAV and FLAC, and M4A (AAC) by encoding the WAV draft on save;
    /// it reads the three. Ogg Opus is neither written nor read there.
    public static let avFoundation = AudioFormatSupport(library: "AVFoundation", writes: [.wav, .flac, .m4a], reads: [.wav, .flac, .m4a])

    /// Checks a format asked for new recordings.
    /// - Throws: `AudioFormatUnsupported.cannotWrite` naming the formats that can be written.
    public func checkWritable(_ format: RecordingAudioFormat) throws {
        guard writes.contains(format) else {
            throw AudioFormatUnsupported(format: format.rawValue, library: library, kind: .write, alternatives: writes)
        }
    }

    /// Checks that the audio of a saved recording (`AudioDescription.format`, any text a library
    /// file holds) can be read here.
    /// - Throws: `AudioFormatUnsupported` of kind `.read`.
    public func checkReadable(_ format: StoredAudioFormat) throws {
        guard let known = format.known, reads.contains(known) else {
            throw AudioFormatUnsupported(format: format.rawValue, library: library, kind: .read, alternatives: reads)
        }
    }

    /// True when the audio of a recording stored as `format` can be read here.
    public func canRead(_ format: StoredAudioFormat) -> Bool {
        (try? checkReadable(format)) != nil
    }
}

/// A stored audio format this platform cannot write or read; its description is one line.
public struct AudioFormatUnsupported: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case write, read }
    /// The format's name as stored ("m4a").
    public var format: String
    /// The platform's audio library ("libsndfile").
    public var library: String
    public var kind: Kind
    /// What the library can do instead.
    public var alternatives: [RecordingAudioFormat]

    public init(format: String, library: String, kind: Kind, alternatives: [RecordingAudioFormat]) {
        self.format = format
        self.library = library
        self.kind = kind
        self.alternatives = alternatives
    }

    public var description: String {
        let name = Self.displayName(format)
        switch kind {
        case .write:
            return "\(name) cannot be recorded here (\(library) cannot write it); use \(RecordingAudioFormat.list(alternatives))."
        case .read:
            return "the audio is \(name), which \(library) cannot read on this machine; "
                + "the transcript can still be listed, shown, searched and exported."
        }
    }

    /// "M4A (AAC)", "FLAC", for messages; an unknown format's name in capitals.
    static func displayName(_ format: String) -> String {
        RecordingAudioFormat(rawValue: format.lowercased())?.displayName ?? format.uppercased()
    }
}
